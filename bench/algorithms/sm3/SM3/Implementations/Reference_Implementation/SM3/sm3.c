/* SM3 (GB/T 32905-2016) written from the standard: the compression function reads whole
 * blocks straight from the caller's message, and only the padded tail is copied. */
#include "sm3.h"

#include <stdint.h>
#include <string.h>

#define SM3_BLOCK_BYTES 64

static const uint32_t sm3_iv[8] = {
    0x7380166FU, 0x4914B2B9U, 0x172442D7U, 0xDA8A0600U,
    0xA96F30BCU, 0x163138AAU, 0xE38DEE4DU, 0xB0FB0E4EU
};

/* T_j <<< (j mod 32), precomputed so that the round loop does no variable rotation. */
static const uint32_t sm3_t_rot[64] = {
    0x79CC4519U, 0xF3988A32U, 0xE7311465U, 0xCE6228CBU,
    0x9CC45197U, 0x3988A32FU, 0x7311465EU, 0xE6228CBCU,
    0xCC451979U, 0x988A32F3U, 0x311465E7U, 0x6228CBCEU,
    0xC451979CU, 0x88A32F39U, 0x11465E73U, 0x228CBCE6U,
    0x9D8A7A87U, 0x3B14F50FU, 0x7629EA1EU, 0xEC53D43CU,
    0xD8A7A879U, 0xB14F50F3U, 0x629EA1E7U, 0xC53D43CEU,
    0x8A7A879DU, 0x14F50F3BU, 0x29EA1E76U, 0x53D43CECU,
    0xA7A879D8U, 0x4F50F3B1U, 0x9EA1E762U, 0x3D43CEC5U,
    0x7A879D8AU, 0xF50F3B14U, 0xEA1E7629U, 0xD43CEC53U,
    0xA879D8A7U, 0x50F3B14FU, 0xA1E7629EU, 0x43CEC53DU,
    0x879D8A7AU, 0x0F3B14F5U, 0x1E7629EAU, 0x3CEC53D4U,
    0x79D8A7A8U, 0xF3B14F50U, 0xE7629EA1U, 0xCEC53D43U,
    0x9D8A7A87U, 0x3B14F50FU, 0x7629EA1EU, 0xEC53D43CU,
    0xD8A7A879U, 0xB14F50F3U, 0x629EA1E7U, 0xC53D43CEU,
    0x8A7A879DU, 0x14F50F3BU, 0x29EA1E76U, 0x53D43CECU,
    0xA7A879D8U, 0x4F50F3B1U, 0x9EA1E762U, 0x3D43CEC5U
};

/* n is in 1..31 at every call site, so neither shift is by the full width. */
static uint32_t rotl32(uint32_t x, unsigned int n)
{
    return (uint32_t)((x << n) | (x >> (32 - n)));
}

static uint32_t p0(uint32_t x) { return x ^ rotl32(x, 9) ^ rotl32(x, 17); }
static uint32_t p1(uint32_t x) { return x ^ rotl32(x, 15) ^ rotl32(x, 23); }

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

/* One round of the compression function. Instead of shifting all eight registers, only B, D,
 * F and H are rewritten, and the caller rotates the register names; four rounds bring the
 * names back to where they started. The two variants differ only in FF_j and GG_j: rounds
 * 0..15 use XOR, later rounds majority and choose, each written with one operation fewer.
 * W'_j = W_j ^ W_{j+4} is formed on the fly. */
#define SM3_ROUND(a, b, c, d, e, f, g, h, j, ff, gg)                          \
    do {                                                                      \
        uint32_t a12_ = rotl32((a), 12);                                      \
        uint32_t ss1_ = rotl32(a12_ + (e) + sm3_t_rot[(j)], 7);               \
        uint32_t ss2_ = ss1_ ^ a12_;                                          \
        (d) += ff((a), (b), (c)) + ss2_ + (w[(j)] ^ w[(j) + 4]);              \
        (h) = p0((h) + gg((e), (f), (g)) + ss1_ + w[(j)]);                    \
        (b) = rotl32((b), 9);                                                 \
        (f) = rotl32((f), 19);                                                \
    } while (0)

#define SM3_XOR3(x, y, z) ((x) ^ (y) ^ (z))
#define SM3_MAJ(x, y, z) (((x) & (y)) | (((x) | (y)) & (z)))
#define SM3_CHOOSE(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

#define SM3_FOUR_ROUNDS(j, ff, gg)                                            \
    do {                                                                      \
        SM3_ROUND(a, b, c, d, e, f, g, h, (j), ff, gg);                       \
        SM3_ROUND(d, a, b, c, h, e, f, g, (j) + 1, ff, gg);                   \
        SM3_ROUND(c, d, a, b, g, h, e, f, (j) + 2, ff, gg);                   \
        SM3_ROUND(b, c, d, a, f, g, h, e, (j) + 3, ff, gg);                   \
    } while (0)

/* Message expansion of W_j .. W_{j+3}. */
#define SM3_EXPAND4(j)                                                        \
    do {                                                                      \
        int k_;                                                               \
        for (k_ = (j); k_ < (j) + 4; k_++)                                    \
            w[k_] = p1(w[k_ - 16] ^ w[k_ - 9] ^ rotl32(w[k_ - 3], 15))        \
                    ^ rotl32(w[k_ - 13], 7) ^ w[k_ - 6];                      \
    } while (0)

static void sm3_compress(uint32_t v[8], const unsigned char *p, unsigned long long nblocks)
{
    uint32_t w[68];
    uint32_t a, b, c, d, e, f, g, h;
    int j;

    for (; nblocks > 0; nblocks--, p += SM3_BLOCK_BYTES) {
        for (j = 0; j < 16; j++)
            w[j] = load_be32(p + 4 * j);

        a = v[0]; b = v[1]; c = v[2]; d = v[3];
        e = v[4]; f = v[5]; g = v[6]; h = v[7];
        /* Words are expanded just before the first rounds that read them (round j reads
         * W_{j+4}) rather than in a separate pass: this keeps the expansion and the round
         * chains running side by side. */
        for (j = 0; j < 16; j += 4) {
            if (j == 12)
                SM3_EXPAND4(16);
            SM3_FOUR_ROUNDS(j, SM3_XOR3, SM3_XOR3);
        }
        for (j = 16; j < 64; j += 4) {
            SM3_EXPAND4(j + 4);
            SM3_FOUR_ROUNDS(j, SM3_MAJ, SM3_CHOOSE);
        }

        v[0] ^= a; v[1] ^= b; v[2] ^= c; v[3] ^= d;
        v[4] ^= e; v[5] ^= f; v[6] ^= g; v[7] ^= h;
    }
}

void sm3_hash_bits(unsigned char out[SM3_DIGEST_BYTES], const unsigned char *msg,
                   unsigned long long msg_len_bits)
{
    /* The padded tail is at most two blocks: the leftover bytes, the 1 bit and the 64-bit
     * length field. */
    unsigned char tail[2 * SM3_BLOCK_BYTES];
    uint32_t v[8];
    unsigned long long full_bytes = msg_len_bits >> 3;
    unsigned long long nblocks = full_bytes / SM3_BLOCK_BYTES;
    unsigned int partial_bits = (unsigned int)(msg_len_bits & 7);
    size_t rest = (size_t)(full_bytes % SM3_BLOCK_BYTES);
    size_t tail_len;
    unsigned long long len;
    int i;

    memcpy(v, sm3_iv, sizeof v);
    if (nblocks > 0)
        sm3_compress(v, msg, nblocks);

    memset(tail, 0, sizeof tail);
    if (rest > 0)
        memcpy(tail, msg + nblocks * SM3_BLOCK_BYTES, rest);
    if (partial_bits > 0) {
        /* Keep only the valid high bits (callers need not clear the rest) and put the
         * padding 1 bit right after them, inside the same byte. */
        unsigned int keep = (0xFF00U >> partial_bits) & 0xFFU;
        tail[rest] = (unsigned char)((msg[full_bytes] & keep) | (0x80U >> partial_bits));
    } else {
        tail[rest] = 0x80;
    }
    tail_len = rest + 1 + 8 <= SM3_BLOCK_BYTES ? SM3_BLOCK_BYTES : 2 * SM3_BLOCK_BYTES;
    len = msg_len_bits;
    for (i = 1; i <= 8; i++, len >>= 8)
        tail[tail_len - (size_t)i] = (unsigned char)len;
    sm3_compress(v, tail, tail_len / SM3_BLOCK_BYTES);

    for (i = 0; i < 8; i++)
        store_be32(out + 4 * i, v[i]);
}
