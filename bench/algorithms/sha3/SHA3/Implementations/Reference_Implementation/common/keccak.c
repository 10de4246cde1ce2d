/* Keccak-f[1600] and the FIPS 202 sponge, written from the standard: absorbs whole blocks
 * straight from the caller's message and pads the tail at bit granularity. */
#include "keccak.h"

#include <stdint.h>
#include <string.h>

#define KECCAK_STATE_BYTES 200
#define KECCAK_ROUNDS 24

/* Round constants RC[i_r] of FIPS 202 section 3.2.5 (iota), from the rc(t) LFSR. */
static const uint64_t keccak_rc[KECCAK_ROUNDS] = {
    UINT64_C(0x0000000000000001), UINT64_C(0x0000000000008082),
    UINT64_C(0x800000000000808A), UINT64_C(0x8000000080008000),
    UINT64_C(0x000000000000808B), UINT64_C(0x0000000080000001),
    UINT64_C(0x8000000080008081), UINT64_C(0x8000000000008009),
    UINT64_C(0x000000000000008A), UINT64_C(0x0000000000000088),
    UINT64_C(0x0000000080008009), UINT64_C(0x000000008000000A),
    UINT64_C(0x000000008000808B), UINT64_C(0x800000000000008B),
    UINT64_C(0x8000000000008089), UINT64_C(0x8000000000008003),
    UINT64_C(0x8000000000008002), UINT64_C(0x8000000000000080),
    UINT64_C(0x000000000000800A), UINT64_C(0x800000008000000A),
    UINT64_C(0x8000000080008081), UINT64_C(0x8000000000008080),
    UINT64_C(0x0000000080000001), UINT64_C(0x8000000080008008)
};

/* n is in 1..63 at every call site, so neither shift is by the full width. */
static uint64_t rotl64(uint64_t x, unsigned int n)
{
    return (x << n) | (x >> (64 - n));
}

/* FIPS 202 maps state bytes to lanes little-endian; byte-wise access keeps the code
 * independent of host endianness and alignment, and compilers fold it into one load. */
static uint64_t load_le64(const unsigned char *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16)
         | ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40)
         | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

static void store_le64(unsigned char *p, uint64_t x)
{
    int i;

    for (i = 0; i < 8; i++, x >>= 8)
        p[i] = (unsigned char)x;
}

/* Lane (x, y) is a[x + 5 * y]. */
static void keccak_f1600(uint64_t a[25])
{
    uint64_t b[25], c[5], d[5];
    int round, y;

    for (round = 0; round < KECCAK_ROUNDS; round++) {
        /* theta */
        c[0] = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
        c[1] = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
        c[2] = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
        c[3] = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
        c[4] = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
        d[0] = c[4] ^ rotl64(c[1], 1);
        d[1] = c[0] ^ rotl64(c[2], 1);
        d[2] = c[1] ^ rotl64(c[3], 1);
        d[3] = c[2] ^ rotl64(c[4], 1);
        d[4] = c[3] ^ rotl64(c[0], 1);

        /* End of theta (adding d), then rho and pi fused: lane (x, y), rotated by its rho
         * offset, moves to (y, 2x + 3y mod 5). Written out because offsets and destinations
         * are fixed, which lets the compiler use immediate rotations. */
        b[ 0] = a[ 0] ^ d[0];
        b[10] = rotl64(a[ 1] ^ d[1],  1);
        b[20] = rotl64(a[ 2] ^ d[2], 62);
        b[ 5] = rotl64(a[ 3] ^ d[3], 28);
        b[15] = rotl64(a[ 4] ^ d[4], 27);
        b[16] = rotl64(a[ 5] ^ d[0], 36);
        b[ 1] = rotl64(a[ 6] ^ d[1], 44);
        b[11] = rotl64(a[ 7] ^ d[2],  6);
        b[21] = rotl64(a[ 8] ^ d[3], 55);
        b[ 6] = rotl64(a[ 9] ^ d[4], 20);
        b[ 7] = rotl64(a[10] ^ d[0],  3);
        b[17] = rotl64(a[11] ^ d[1], 10);
        b[ 2] = rotl64(a[12] ^ d[2], 43);
        b[12] = rotl64(a[13] ^ d[3], 25);
        b[22] = rotl64(a[14] ^ d[4], 39);
        b[23] = rotl64(a[15] ^ d[0], 41);
        b[ 8] = rotl64(a[16] ^ d[1], 45);
        b[18] = rotl64(a[17] ^ d[2], 15);
        b[ 3] = rotl64(a[18] ^ d[3], 21);
        b[13] = rotl64(a[19] ^ d[4],  8);
        b[14] = rotl64(a[20] ^ d[0], 18);
        b[24] = rotl64(a[21] ^ d[1],  2);
        b[ 9] = rotl64(a[22] ^ d[2], 61);
        b[19] = rotl64(a[23] ^ d[3], 56);
        b[ 4] = rotl64(a[24] ^ d[4], 14);

        /* chi, row by row */
        for (y = 0; y < 25; y += 5) {
            a[y + 0] = b[y + 0] ^ (~b[y + 1] & b[y + 2]);
            a[y + 1] = b[y + 1] ^ (~b[y + 2] & b[y + 3]);
            a[y + 2] = b[y + 2] ^ (~b[y + 3] & b[y + 4]);
            a[y + 3] = b[y + 3] ^ (~b[y + 4] & b[y + 0]);
            a[y + 4] = b[y + 4] ^ (~b[y + 0] & b[y + 1]);
        }

        /* iota */
        a[0] ^= keccak_rc[round];
    }
}

static void keccak_absorb_blocks(uint64_t a[25], unsigned int rate_lanes, const unsigned char *p,
                                 unsigned long long nblocks)
{
    unsigned int i;

    for (; nblocks > 0; nblocks--) {
        for (i = 0; i < rate_lanes; i++, p += 8)
            a[i] ^= load_le64(p);
        keccak_f1600(a);
    }
}

int keccak_sponge_bits(unsigned char *out, unsigned long long out_len, unsigned int rate_bytes,
                       unsigned int suffix, unsigned int suffix_bits, const unsigned char *msg,
                       unsigned long long msg_len_bits)
{
    /* The padded tail is at most two blocks: with the leftover bytes (fewer than a block),
     * up to 7 message bits, at most 8 suffix bits and the two padding 1 bits, it can spill
     * into a second block but never a third. */
    unsigned char tail[2 * KECCAK_STATE_BYTES];
    uint64_t a[25];
    unsigned long long full_bytes = msg_len_bits >> 3;
    unsigned long long nblocks;
    unsigned int partial_bits = (unsigned int)(msg_len_bits & 7);
    unsigned int rate_lanes, last, bits, tail_blocks;
    size_t rest;

    if (rate_bytes == 0 || rate_bytes > KECCAK_STATE_BYTES || rate_bytes % 8 != 0)
        return -1;
    if (suffix_bits > 8)
        return -1;
    rate_lanes = rate_bytes / 8;
    nblocks = full_bytes / rate_bytes;
    rest = (size_t)(full_bytes % rate_bytes);

    memset(a, 0, sizeof a);
    if (nblocks > 0)
        keccak_absorb_blocks(a, rate_lanes, msg, nblocks);

    memset(tail, 0, 2 * (size_t)rate_bytes);
    if (rest > 0)
        memcpy(tail, msg + nblocks * rate_bytes, rest);

    /* Starting at bit 0 of tail[rest], in absorbing order: the r message bits (the partial
     * byte shifted down so its valid bits sit at the bottom), the suffix, and the first 1
     * of pad10*1. That is at most 7 + 8 + 1 bits, so it fits in two bytes. */
    last = partial_bits > 0 ? (unsigned int)msg[full_bytes] >> (8 - partial_bits) : 0U;
    last |= (suffix & ((1U << suffix_bits) - 1U)) << partial_bits;
    last |= 1U << (partial_bits + suffix_bits);
    tail[rest] = (unsigned char)(last & 0xFFU);
    tail[rest + 1] = (unsigned char)(last >> 8);

    /* The final 1 of pad10*1 goes in the last bit of the block after the bits used so far;
     * when the first 1 already took the last bit of a block, that is one block further. */
    bits = 8U * (unsigned int)rest + partial_bits + suffix_bits + 1U;
    tail_blocks = bits / (8U * rate_bytes) + 1U;
    tail[tail_blocks * rate_bytes - 1] |= 0x80U;
    keccak_absorb_blocks(a, rate_lanes, tail, tail_blocks);

    /* Squeeze: whole lanes are stored directly, a final partial lane byte by byte. */
    for (;;) {
        unsigned int i;
        size_t n = out_len < rate_bytes ? (size_t)out_len : rate_bytes;

        for (i = 0; i + 8 <= n; i += 8)
            store_le64(out + i, a[i / 8]);
        for (; i < n; i++)
            out[i] = (unsigned char)(a[i / 8] >> (8 * (i % 8)));
        out += n;
        out_len -= n;
        if (out_len == 0)
            break;
        keccak_f1600(a);
    }
    return 0;
}
