/* SHA-512 (FIPS 180-4) written from the standard: the compression function reads whole
 * blocks straight from the caller's message, and only the padded tail is copied. */
#include "sha512.h"

#include <stdint.h>
#include <string.h>

#define SHA512_BLOCK_BYTES 128
#define SHA512_LENGTH_BYTES 16

/* FIPS 180-4 section 4.2.3: first 64 bits of the fractional parts of the cube roots of the
 * first 80 primes. */
static const uint64_t sha512_k[80] = {
    UINT64_C(0x428A2F98D728AE22), UINT64_C(0x7137449123EF65CD),
    UINT64_C(0xB5C0FBCFEC4D3B2F), UINT64_C(0xE9B5DBA58189DBBC),
    UINT64_C(0x3956C25BF348B538), UINT64_C(0x59F111F1B605D019),
    UINT64_C(0x923F82A4AF194F9B), UINT64_C(0xAB1C5ED5DA6D8118),
    UINT64_C(0xD807AA98A3030242), UINT64_C(0x12835B0145706FBE),
    UINT64_C(0x243185BE4EE4B28C), UINT64_C(0x550C7DC3D5FFB4E2),
    UINT64_C(0x72BE5D74F27B896F), UINT64_C(0x80DEB1FE3B1696B1),
    UINT64_C(0x9BDC06A725C71235), UINT64_C(0xC19BF174CF692694),
    UINT64_C(0xE49B69C19EF14AD2), UINT64_C(0xEFBE4786384F25E3),
    UINT64_C(0x0FC19DC68B8CD5B5), UINT64_C(0x240CA1CC77AC9C65),
    UINT64_C(0x2DE92C6F592B0275), UINT64_C(0x4A7484AA6EA6E483),
    UINT64_C(0x5CB0A9DCBD41FBD4), UINT64_C(0x76F988DA831153B5),
    UINT64_C(0x983E5152EE66DFAB), UINT64_C(0xA831C66D2DB43210),
    UINT64_C(0xB00327C898FB213F), UINT64_C(0xBF597FC7BEEF0EE4),
    UINT64_C(0xC6E00BF33DA88FC2), UINT64_C(0xD5A79147930AA725),
    UINT64_C(0x06CA6351E003826F), UINT64_C(0x142929670A0E6E70),
    UINT64_C(0x27B70A8546D22FFC), UINT64_C(0x2E1B21385C26C926),
    UINT64_C(0x4D2C6DFC5AC42AED), UINT64_C(0x53380D139D95B3DF),
    UINT64_C(0x650A73548BAF63DE), UINT64_C(0x766A0ABB3C77B2A8),
    UINT64_C(0x81C2C92E47EDAEE6), UINT64_C(0x92722C851482353B),
    UINT64_C(0xA2BFE8A14CF10364), UINT64_C(0xA81A664BBC423001),
    UINT64_C(0xC24B8B70D0F89791), UINT64_C(0xC76C51A30654BE30),
    UINT64_C(0xD192E819D6EF5218), UINT64_C(0xD69906245565A910),
    UINT64_C(0xF40E35855771202A), UINT64_C(0x106AA07032BBD1B8),
    UINT64_C(0x19A4C116B8D2D0C8), UINT64_C(0x1E376C085141AB53),
    UINT64_C(0x2748774CDF8EEB99), UINT64_C(0x34B0BCB5E19B48A8),
    UINT64_C(0x391C0CB3C5C95A63), UINT64_C(0x4ED8AA4AE3418ACB),
    UINT64_C(0x5B9CCA4F7763E373), UINT64_C(0x682E6FF3D6B2B8A3),
    UINT64_C(0x748F82EE5DEFB2FC), UINT64_C(0x78A5636F43172F60),
    UINT64_C(0x84C87814A1F0AB72), UINT64_C(0x8CC702081A6439EC),
    UINT64_C(0x90BEFFFA23631E28), UINT64_C(0xA4506CEBDE82BDE9),
    UINT64_C(0xBEF9A3F7B2C67915), UINT64_C(0xC67178F2E372532B),
    UINT64_C(0xCA273ECEEA26619C), UINT64_C(0xD186B8C721C0C207),
    UINT64_C(0xEADA7DD6CDE0EB1E), UINT64_C(0xF57D4F7FEE6ED178),
    UINT64_C(0x06F067AA72176FBA), UINT64_C(0x0A637DC5A2C898A6),
    UINT64_C(0x113F9804BEF90DAE), UINT64_C(0x1B710B35131C471B),
    UINT64_C(0x28DB77F523047D84), UINT64_C(0x32CAAB7B40C72493),
    UINT64_C(0x3C9EBE0A15C9BEBC), UINT64_C(0x431D67C49C100D4C),
    UINT64_C(0x4CC5D4BECB3E42B6), UINT64_C(0x597F299CFC657E2A),
    UINT64_C(0x5FCB6FAB3AD6FAEC), UINT64_C(0x6C44198C4A475817)
};

/* FIPS 180-4 section 5.3.5: fractional parts of the square roots of the first 8 primes. */
static const uint64_t sha512_h0[8] = {
    UINT64_C(0x6A09E667F3BCC908), UINT64_C(0xBB67AE8584CAA73B),
    UINT64_C(0x3C6EF372FE94F82B), UINT64_C(0xA54FF53A5F1D36F1),
    UINT64_C(0x510E527FADE682D1), UINT64_C(0x9B05688C2B3E6C1F),
    UINT64_C(0x1F83D9ABFB41BD6B), UINT64_C(0x5BE0CD19137E2179)
};

/* n is in 1..63 at every call site, so neither shift is by the full width. */
static uint64_t rotr64(uint64_t x, unsigned int n)
{
    return (x >> n) | (x << (64 - n));
}

/* Byte-wise so the code is independent of host endianness and alignment; compilers turn
 * this into a single load and byte swap. */
static uint64_t load_be64(const unsigned char *p)
{
    return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40)
         | ((uint64_t)p[3] << 32) | ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16)
         | ((uint64_t)p[6] << 8) | (uint64_t)p[7];
}

static void store_be64(unsigned char *p, uint64_t x)
{
    int i;

    for (i = 7; i >= 0; i--, x >>= 8)
        p[i] = (unsigned char)x;
}

static void sha512_compress(uint64_t hs[8], const unsigned char *p, unsigned long long nblocks)
{
    uint64_t w[80];
    uint64_t a, b, c, d, e, f, g, h, t1, t2;
    int t;

    for (; nblocks > 0; nblocks--, p += SHA512_BLOCK_BYTES) {
        for (t = 0; t < 16; t++)
            w[t] = load_be64(p + 8 * t);
        for (t = 16; t < 80; t++) {
            uint64_t s0 = rotr64(w[t - 15], 1) ^ rotr64(w[t - 15], 8) ^ (w[t - 15] >> 7);
            uint64_t s1 = rotr64(w[t - 2], 19) ^ rotr64(w[t - 2], 61) ^ (w[t - 2] >> 6);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }

        a = hs[0]; b = hs[1]; c = hs[2]; d = hs[3];
        e = hs[4]; f = hs[5]; g = hs[6]; h = hs[7];
        for (t = 0; t < 80; t++) {
            /* Ch and Maj, each in a form with one operation fewer than in the standard. */
            t1 = h + (rotr64(e, 14) ^ rotr64(e, 18) ^ rotr64(e, 41)) + (g ^ (e & (f ^ g)))
                 + sha512_k[t] + w[t];
            t2 = (rotr64(a, 28) ^ rotr64(a, 34) ^ rotr64(a, 39)) + ((a & b) | ((a | b) & c));
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        hs[0] += a; hs[1] += b; hs[2] += c; hs[3] += d;
        hs[4] += e; hs[5] += f; hs[6] += g; hs[7] += h;
    }
}

void sha512_hash_bits(unsigned char out[SHA512_DIGEST_BYTES], const unsigned char *msg,
                      unsigned long long msg_len_bits)
{
    /* The padded tail is at most two blocks: the leftover bytes, the 1 bit and the 128-bit
     * length field. */
    unsigned char tail[2 * SHA512_BLOCK_BYTES];
    uint64_t hs[8];
    unsigned long long full_bytes = msg_len_bits >> 3;
    unsigned long long nblocks = full_bytes / SHA512_BLOCK_BYTES;
    unsigned int partial_bits = (unsigned int)(msg_len_bits & 7);
    size_t rest = (size_t)(full_bytes % SHA512_BLOCK_BYTES);
    size_t tail_len;
    int i;

    memcpy(hs, sha512_h0, sizeof hs);
    if (nblocks > 0)
        sha512_compress(hs, msg, nblocks);

    memset(tail, 0, sizeof tail);
    if (rest > 0)
        memcpy(tail, msg + nblocks * SHA512_BLOCK_BYTES, rest);
    if (partial_bits > 0) {
        /* Keep only the valid high bits (callers need not clear the rest) and put the
         * padding 1 bit right after them, inside the same byte. */
        unsigned int keep = (0xFF00U >> partial_bits) & 0xFFU;
        tail[rest] = (unsigned char)((msg[full_bytes] & keep) | (0x80U >> partial_bits));
    } else {
        tail[rest] = 0x80;
    }
    tail_len = rest + 1 + SHA512_LENGTH_BYTES <= SHA512_BLOCK_BYTES ? SHA512_BLOCK_BYTES
                                                                    : 2 * SHA512_BLOCK_BYTES;
    /* The length field is 128 bits wide; an unsigned long long length leaves its upper
     * half zero, as the memset already made it. */
    store_be64(tail + tail_len - 8, msg_len_bits);
    sha512_compress(hs, tail, tail_len / SHA512_BLOCK_BYTES);

    for (i = 0; i < 8; i++)
        store_be64(out + 8 * i, hs[i]);
}
