/* oids.h - every object identifier fastsig uses, in one place.
 *
 * Standard OIDs where they exist (RFC 9802 for XMSS and XMSS^MT); for the
 * algorithms without one, fastsig's own arc under 2.25 (a UUID OID,
 * UUID 3a4d6c70-6a0f-444c-b359-dce5b52f99ec). */
#ifndef FASTSIG_OIDS_H
#define FASTSIG_OIDS_H

#define FSP_OID_ARC    "2.25.77497230020247565797983039438780865004"
#define FSP_OID_WOTSP  FSP_OID_ARC ".1"
#define FSP_OID_RW     FSP_OID_ARC ".2"
#define FSP_OID_RW_P1363 FSP_OID_RW ".1" /* IEEE 1363 IFSP-RW/EMSA2 profile */
#define FSP_OID_TZ     FSP_OID_ARC ".3"

#define FSP_OID_XMSS   "1.3.6.1.5.5.7.6.34" /* id-alg-xmss-hashsig, RFC 9802 */
#define FSP_OID_XMSSMT "1.3.6.1.5.5.7.6.35" /* id-alg-xmssmt-hashsig, RFC 9802 */
#define FSP_OID_HSS    "1.2.840.113549.1.9.16.3.17" /* id-alg-hss-lms-hashsig, RFC 9708 / 9802 */

#endif
