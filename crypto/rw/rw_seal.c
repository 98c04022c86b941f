/* rw_seal.c - the private key's numbers out of core dumps: GMP keeps limbs
 * in malloc'd memory (its allocator is process-wide, not ours to replace),
 * so once a key's private numbers are final they are copied into one
 * secmem.h block and read through read-only mpz views (as mpz_roinit_n
 * makes them: alloc 0, so GMP never grows or frees them); the GMP copies are
 * wiped and freed. */
#include <string.h>
#include "fastsig_err.h"
#include "rw/rw_internal.h"
#include "secmem.h"

#define NFIELDS 7

static void fields(rw_key *k, mpz_ptr f[NFIELDS])
{
    mpz_ptr all[NFIELDS] = { k->p, k->q, k->u, k->dp, k->dq, k->ap, k->aq };
    memcpy(f, all, sizeof(all));
}

/* A view (alloc 0) is never handed to GMP to grow or free. */
static int is_view(mpz_srcptr z)
{
    return z->_mp_alloc == 0;
}

int rw_key_seal(rw_key *k)
{
    mpz_ptr f[NFIELDS];
    size_t total = 0, off = 0;
    mp_limb_t *blk;

    fields(k, f);
    for (int i = 0; i < NFIELDS; i++)
        total += mpz_size(f[i]);
    if ((blk = fs_secmem_alloc((total + 1) * sizeof(mp_limb_t))) == NULL)
        return FASTSIG_ERR_NOMEM;
    for (int i = 0; i < NFIELDS; i++) {
        size_t n = mpz_size(f[i]);
        memcpy(blk + off, mpz_limbs_read(f[i]), n * sizeof(mp_limb_t));
        if (!is_view(f[i])) {
            rw_wipe(f[i]->_mp_d, (size_t)f[i]->_mp_alloc * sizeof(mp_limb_t));
            mpz_clear(f[i]);
        }
        /* a read-only view as mpz_roinit_n makes one, without its
         * normalization: that looks at the top limb (a secret branch) */
        f[i]->_mp_alloc = 0;
        f[i]->_mp_size = (int)n; /* all are positive; the size is public */
        f[i]->_mp_d = blk + off;
        off += n;
    }
    fs_secmem_free(k->sealed); /* a key sealed before: its old block */
    k->sealed = blk;
    return FASTSIG_OK;
}

void rw_key_unseal(rw_key *k)
{
    mpz_ptr f[NFIELDS];

    fields(k, f);
    for (int i = 0; i < NFIELDS; i++)
        if (is_view(f[i])) { /* back into GMP memory: writable again */
            mpz_t v;
            mpz_init_set(v, f[i]);
            *f[i] = *v;
        }
    fs_secmem_free(k->sealed); /* wiped */
    k->sealed = NULL;
}

void rw_key_swap(rw_key *a, rw_key *b)
{
    rw_key tmp = *a;
    *a = *b;
    *b = tmp;
    rw_wipe(&tmp, sizeof(tmp)); /* the PRF key */
}
