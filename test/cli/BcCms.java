/* BcCms.java - Bouncy Castle 1.72 (Debian's libbcprov-java, libbcpkix-java) as the
 * independent CMS peer of test/cli/bc_cms.sh. Two commands:
 *
 *   sign KIND DIR CONTENT   BC makes a key of KIND (HSS1: LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4;
 *                           HSS2: two such levels; XMSS: XMSS-SHA2_10_256; XMSSMT:
 *                           XMSSMT-SHA2_20/4_256), writes DIR/pub.der (its SubjectPublicKeyInfo
 *                           as BC encodes it), DIR/cert.pem (self-signed by BC) and
 *                           DIR/{attrs,noattr}-{detached,attached}.der: SignedData of CONTENT
 *                           with and without signed attributes (without: the signature is over
 *                           the content itself, RFC 9708 section 4).
 *   verify CERT CONTENT F...  BC verifies each SignedData F (detached ones over CONTENT) with the
 *                           public key of fastsig's certificate CERT; prints "F ok" or "F bad".
 *
 * BC 1.72 names HSS as RFC 8708 does (the key in an OCTET STRING inside the BIT STRING, NULL
 * signature parameters) and refuses the RFC 9708 / 9802 form; for XMSS and XMSS^MT it uses BSI's
 * OIDs (0.4.0.127.0.15.1.1.13.0 / .14.0). So HSS certificates are BC's own, while for XMSS the
 * certificate and the SignerInfo carry RFC 9802's OIDs with the raw key (BC's own signature:
 * only the label differs); BC's key objects are made from fastsig's raw keys in the same way.
 * BC 1.72 signs with an L = 1 key as LMS does (a bare LMS signature, no leading count of
 * signed public keys) and verifies only that form with such a key; fastsig writes RFC 9708's
 * HSS signature, so HSS is verified here with BC's HSS key object and HSS verifier. */
import java.io.*;
import java.math.BigInteger;
import java.nio.file.*;
import java.security.*;
import java.security.spec.X509EncodedKeySpec;
import java.util.*;
import org.bouncycastle.asn1.*;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.*;
import org.bouncycastle.cert.*;
import org.bouncycastle.cms.*;
import org.bouncycastle.cms.jcajce.*;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.*;
import org.bouncycastle.operator.jcajce.*;
import org.bouncycastle.pqc.crypto.lms.*;
import org.bouncycastle.pqc.jcajce.provider.BouncyCastlePQCProvider;
import org.bouncycastle.pqc.jcajce.spec.*;

public class BcCms {
    static final String HSS = "1.2.840.113549.1.9.16.3.17";
    static final String XMSS = "1.3.6.1.5.5.7.6.34", XMSSMT = "1.3.6.1.5.5.7.6.35";
    static final String BSI_XMSS = "0.4.0.127.0.15.1.1.13.0", BSI_XMSSMT = "0.4.0.127.0.15.1.1.14.0";

    /* The JCA names of an RFC OID: key factory, pure signature, BC's own OID for the key. */
    static String[] names(String oid) {
        switch (oid) {
        case HSS: return new String[] { "LMS", "LMS", HSS };
        case XMSS: return new String[] { "XMSS", "XMSS", BSI_XMSS };
        case XMSSMT: return new String[] { "XMSSMT", "XMSSMT", BSI_XMSSMT };
        }
        throw new IllegalArgumentException("not a hash-based signature OID: " + oid);
    }

    /* A signer that streams the data into BC's pure signature (the message whole) and labels it id. */
    static ContentSigner signer(PrivateKey k, String jca, AlgorithmIdentifier id) throws Exception {
        Signature s = Signature.getInstance(jca, "BCPQC");
        s.initSign(k);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        return new ContentSigner() {
            public AlgorithmIdentifier getAlgorithmIdentifier() { return id; }
            public OutputStream getOutputStream() { return buf; }
            public byte[] getSignature() {
                try { s.update(buf.toByteArray()); buf.reset(); return s.sign(); }
                catch (SignatureException e) { throw new RuntimeException(e); }
            }
        };
    }

    static void sign(String kind, Path dir, byte[] content) throws Exception {
        LMSKeyGenParameterSpec lms = new LMSKeyGenParameterSpec(LMSigParameters.lms_sha256_n32_h5,
                                                                LMOtsParameters.sha256_n32_w4);
        String alg = kind.startsWith("HSS") ? "LMS" : kind;
        java.security.spec.AlgorithmParameterSpec spec =
            kind.equals("HSS1") ? lms
            : kind.equals("HSS2") ? new LMSHSSKeyGenParameterSpec(lms, lms)
            : kind.equals("XMSS") ? new XMSSParameterSpec(10, XMSSParameterSpec.SHA256)
            : new XMSSMTParameterSpec(20, 4, XMSSMTParameterSpec.SHA256);
        KeyPairGenerator g = KeyPairGenerator.getInstance(alg, "BCPQC");
        g.initialize(spec, new SecureRandom());
        KeyPair kp = g.generateKeyPair();
        Files.write(dir.resolve("pub.der"), kp.getPublic().getEncoded()); /* BC's own SPKI */
        ContentSigner cs;
        SubjectPublicKeyInfo spki = SubjectPublicKeyInfo.getInstance(kp.getPublic().getEncoded());
        if (alg.equals("LMS")) { /* BC as it is: RFC 8708 key, NULL parameters */
            cs = new JcaContentSignerBuilder("LMS").setProvider("BCPQC").build(kp.getPrivate());
        } else { /* RFC 9802: IETF OID, raw key, parameters absent */
            AlgorithmIdentifier id = new AlgorithmIdentifier(
                new ASN1ObjectIdentifier(alg.equals("XMSS") ? XMSS : XMSSMT));
            byte[] raw = ASN1OctetString.getInstance(spki.getPublicKeyData().getBytes()).getOctets();
            spki = new SubjectPublicKeyInfo(id, raw);
            cs = signer(kp.getPrivate(), alg, id);
        }
        X500Name name = new X500Name("CN=Bouncy Castle " + kind + " signer");
        long now = System.currentTimeMillis();
        X509CertificateHolder cert = new X509v3CertificateBuilder(name, BigInteger.ONE,
            new Date(now - 3600000L), new Date(now + 36500L * 86400000L), name, spki).build(cs);
        try (JcaPEMWriter w = new JcaPEMWriter(new FileWriter(dir.resolve("cert.pem").toFile()))) {
            w.writeObject(cert);
        }
        DigestCalculatorProvider dcp = new JcaDigestCalculatorProviderBuilder().setProvider("BC").build();
        for (boolean attrs : new boolean[] { true, false })
            for (boolean attached : new boolean[] { false, true }) {
                CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
                gen.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(dcp)
                    .setContentDigest(new AlgorithmIdentifier(NISTObjectIdentifiers_sha256()))
                    .setDirectSignature(!attrs).build(cs, cert));
                gen.addCertificate(cert);
                CMSSignedData sd = gen.generate(new CMSProcessableByteArray(content), attached);
                String f = (attrs ? "attrs" : "noattr") + "-" + (attached ? "attached" : "detached");
                Files.write(dir.resolve(f + ".der"), sd.getEncoded("DER"));
            }
    }

    static ASN1ObjectIdentifier NISTObjectIdentifiers_sha256() {
        return org.bouncycastle.asn1.nist.NISTObjectIdentifiers.id_sha256;
    }

    interface Check { boolean ok(byte[] msg, byte[] sig) throws Exception; }

    /* BC's verification with the raw key of fastsig's certificate (RFC 9708 / 9802 form). For
     * HSS, BC's own HSS key object and verifier: BC 1.72's key factory turns an L = 1 key into
     * an LMS key, which takes only bare LMS signatures, not RFC 9708's HSS signature. */
    static Check check(X509CertificateHolder cert, String[] n) throws Exception {
        byte[] raw = cert.getSubjectPublicKeyInfo().getPublicKeyData().getBytes();
        if (raw.length > 0 && raw[0] == 0x04) /* already RFC 8708's OCTET STRING (BC's own) */
            raw = ASN1OctetString.getInstance(raw).getOctets();
        if (n[0].equals("LMS")) {
            HSSPublicKeyParameters pub = HSSPublicKeyParameters.getInstance(raw);
            return (msg, sig) -> {
                HSSSigner v = new HSSSigner();
                v.init(false, pub);
                return v.verifySignature(msg, sig);
            };
        }
        SubjectPublicKeyInfo bc = new SubjectPublicKeyInfo(
            new AlgorithmIdentifier(new ASN1ObjectIdentifier(n[2])), new DEROctetString(raw));
        PublicKey pub = KeyFactory.getInstance(n[0], "BCPQC").generatePublic(new X509EncodedKeySpec(bc.getEncoded()));
        return (msg, sig) -> {
            Signature v = Signature.getInstance(n[1], "BCPQC");
            v.initVerify(pub);
            v.update(msg);
            return v.verify(sig);
        };
    }

    /* A verifier that streams what BC hands it (the signed attributes' DER, or the content
     * itself when there are none) into c. */
    static SignerInformationVerifier verifier(Check c) throws Exception {
        DigestCalculatorProvider dcp = new JcaDigestCalculatorProviderBuilder().setProvider("BC").build();
        ContentVerifierProvider cvp = new ContentVerifierProvider() {
            public boolean hasAssociatedCertificate() { return false; }
            public X509CertificateHolder getAssociatedCertificate() { return null; }
            public ContentVerifier get(AlgorithmIdentifier sig) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                return new ContentVerifier() {
                    public AlgorithmIdentifier getAlgorithmIdentifier() { return sig; }
                    public OutputStream getOutputStream() { return buf; }
                    public boolean verify(byte[] s) {
                        try {
                            return c.ok(buf.toByteArray(), s);
                        } catch (Exception e) {
                            return false;
                        }
                    }
                };
            }
        };
        return new SignerInformationVerifier(new DefaultCMSSignatureAlgorithmNameGenerator(),
                new DefaultSignatureAlgorithmIdentifierFinder(), cvp, dcp) {
            @Override /* BC 1.72 has no name for RFC 9802's OIDs: no lookup by name */
            public ContentVerifier getContentVerifier(AlgorithmIdentifier sig, AlgorithmIdentifier dig)
                throws OperatorCreationException {
                return cvp.get(sig);
            }
        };
    }

    static boolean verifyOne(Path f, byte[] content, X509CertificateHolder cert) {
        try {
            String oid = cert.getSubjectPublicKeyInfo().getAlgorithm().getAlgorithm().getId();
            String[] n = names(oid);
            CMSSignedData sd = new CMSSignedData(Files.readAllBytes(f));
            if (sd.getSignedContent() == null)
                sd = new CMSSignedData(new CMSProcessableByteArray(content), Files.readAllBytes(f));
            Collection<SignerInformation> si = sd.getSignerInfos().getSigners();
            if (si.size() != 1)
                return false;
            SignerInformation s = si.iterator().next();
            if (!s.getEncryptionAlgOID().equals(oid))
                return false; /* the SignerInfo must name the key's algorithm */
            return s.verify(verifier(check(cert, n)));
        } catch (Exception e) {
            System.err.println(f + ": " + e);
            return false;
        }
    }

    public static void main(String[] a) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        Security.addProvider(new BouncyCastlePQCProvider());
        if (a.length == 4 && a[0].equals("sign")) {
            sign(a[1], Paths.get(a[2]), Files.readAllBytes(Paths.get(a[3])));
            return;
        }
        if (a.length >= 4 && a[0].equals("verify")) {
            X509CertificateHolder cert;
            try (Reader r = new FileReader(a[1])) {
                cert = (X509CertificateHolder) new org.bouncycastle.openssl.PEMParser(r).readObject();
            }
            byte[] content = Files.readAllBytes(Paths.get(a[2]));
            for (int i = 3; i < a.length; i++)
                System.out.println(a[i] + (verifyOne(Paths.get(a[i]), content, cert) ? " ok" : " bad"));
            return;
        }
        System.err.println("usage: BcCms sign HSS1|HSS2|XMSS|XMSSMT DIR CONTENT | verify CERT CONTENT CMS...");
        System.exit(2);
    }
}
