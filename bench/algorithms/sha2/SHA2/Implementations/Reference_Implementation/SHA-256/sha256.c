/* SHA-256 (FIPS 180-4) written from the standard: the compression function reads whole
 * blocks straight from the caller's message, and only the padded tail is copied. */
#include "sha256.h"

#include <stdint.h>
#include <string.h>

#define SHA256_BLOCK_BYTES 64

/* FIPS 180-4 section 4.2.2: first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
static const uint32_t sha256_k[64] = {
    0x428A2F98U, 0x71374491U, 0xB5C0FBCFU, 0xE9B5DBA5U,
    0x3956C25BU, 0x59F111F1U, 0x923F82A4U, 0xAB1C5ED5U,
    0xD807AA98U, 0x12835B01U, 0x243185BEU, 0x550C7DC3U,
    0x72BE5D74U, 0x80DEB1FEU, 0x9BDC06A7U, 0xC19BF174U,
    0xE49B69C1U, 0xEFBE4786U, 0x0FC19DC6U, 0x240CA1CCU,
    0x2DE92C6FU, 0x4A7484AAU, 0x5CB0A9DCU, 0x76F988DAU,
    0x983E5152U, 0xA831C66DU, 0xB00327C8U, 0xBF597FC7U,
    0xC6E00BF3U, 0xD5A79147U, 0x06CA6351U, 0x14292967U,
    0x27B70A85U, 0x2E1B2138U, 0x4D2C6DFCU, 0x53380D13U,
    0x650A7354U, 0x766A0ABBU, 0x81C2C92EU, 0x92722C85U,
    0xA2BFE8A1U, 0xA81A664BU, 0xC24B8B70U, 0xC76C51A3U,
    0xD192E819U, 0xD6990624U, 0xF40E3585U, 0x106AA070U,
    0x19A4C116U, 0x1E376C08U, 0x2748774CU, 0x34B0BCB5U,
    0x391C0CB3U, 0x4ED8AA4AU, 0x5B9CCA4FU, 0x682E6FF3U,
    0x748F82EEU, 0x78A5636FU, 0x84C87814U, 0x8CC70208U,
    0x90BEFFFAU, 0xA4506CEBU, 0xBEF9A3F7U, 0xC67178F2U
};

/* FIPS 180-4 section 5.3.3: fractional parts of the square roots of the first 8 primes. */
static const uint32_t sha256_h0[8] = {
    0x6A09E667U, 0xBB67AE85U, 0x3C6EF372U, 0xA54FF53AU,
    0x510E527FU, 0x9B05688CU, 0x1F83D9ABU, 0x5BE0CD19U
};

/* n is in 1..31 at every call site, so neither shift is by the full width. */
static uint32_t rotr32(uint32_t x, unsigned int n)
{
    return (uint32_t)((x >> n) | (x << (32 - n)));
}

/* Byte-wise so the code is independent of host endianness and alignment; compilers turn
 * this into a single load and byte swap. */
static uint32_t load_be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void store_be32(unsigned char *p, uint32_t x)
{
    p[0] = (unsigned char)(x >> 24);
    p[1] = (unsigned char)(x >> 16);
    p[2] = (unsigned char)(x >> 8);
    p[3] = (unsigned char)x;
}

static void sha256_compress(uint32_t hs[8], const unsigned char *p, unsigned long long nblocks)
{
    uint32_t w[64];
    uint32_t a, b, c, d, e, f, g, h, t1, t2;
    int t;

    for (; nblocks > 0; nblocks--, p += SHA256_BLOCK_BYTES) {
        for (t = 0; t < 16; t++)
            w[t] = load_be32(p + 4 * t);
        for (t = 16; t < 64; t++) {
            uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }

        a = hs[0]; b = hs[1]; c = hs[2]; d = hs[3];
        e = hs[4]; f = hs[5]; g = hs[6]; h = hs[7];
        for (t = 0; t < 64; t++) {
            /* Ch and Maj, each in a form with one operation fewer than in the standard. */
            t1 = h + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + (g ^ (e & (f ^ g)))
                 + sha256_k[t] + w[t];
            t2 = (rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) | ((a | b) & c));
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        hs[0] += a; hs[1] += b; hs[2] += c; hs[3] += d;
        hs[4] += e; hs[5] += f; hs[6] += g; hs[7] += h;
    }
}

void sha256_hash_bits(unsigned char out[SHA256_DIGEST_BYTES], const unsigned char *msg,
                      unsigned long long msg_len_bits)
{
    /* The padded tail is at most two blocks: the leftover bytes, the 1 bit and the 64-bit
     * length field. */
    unsigned char tail[2 * SHA256_BLOCK_BYTES];
    uint32_t hs[8];
    unsigned long long full_bytes = msg_len_bits >> 3;
    unsigned long long nblocks = full_bytes / SHA256_BLOCK_BYTES;
    unsigned int partial_bits = (unsigned int)(msg_len_bits & 7);
    size_t rest = (size_t)(full_bytes % SHA256_BLOCK_BYTES);
    size_t tail_len;
    unsigned long long len;
    int i;

    memcpy(hs, sha256_h0, sizeof hs);
    if (nblocks > 0)
        sha256_compress(hs, msg, nblocks);

    memset(tail, 0, sizeof tail);
    if (rest > 0)
        memcpy(tail, msg + nblocks * SHA256_BLOCK_BYTES, rest);
    if (partial_bits > 0) {
        /* Keep only the valid high bits (callers need not clear the rest) and put the
         * padding 1 bit right after them, inside the same byte. */
        unsigned int keep = (0xFF00U >> partial_bits) & 0xFFU;
        tail[rest] = (unsigned char)((msg[full_bytes] & keep) | (0x80U >> partial_bits));
    } else {
        tail[rest] = 0x80;
    }
    tail_len = rest + 1 + 8 <= SHA256_BLOCK_BYTES ? SHA256_BLOCK_BYTES : 2 * SHA256_BLOCK_BYTES;
    len = msg_len_bits;
    for (i = 1; i <= 8; i++, len >>= 8)
        tail[tail_len - (size_t)i] = (unsigned char)len;
    sha256_compress(hs, tail, tail_len / SHA256_BLOCK_BYTES);

    for (i = 0; i < 8; i++)
        store_be32(out + 4 * i, hs[i]);
}
