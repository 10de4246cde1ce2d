/* Keccak-f[1600] sponge of FIPS 202, shared by the bundled SHA3-256, SHA3-512 and SHAKE256
 * baselines; it takes the message as a bit length in the NGCC CryptHash layout. */
#ifndef KECCAK_H
#define KECCAK_H

/* Rates (block sizes) in bytes: 200 - 2 * capacity-half, per FIPS 202 section 6. */
#define KECCAK_RATE_SHA3_256 136
#define KECCAK_RATE_SHA3_512 72
#define KECCAK_RATE_SHAKE256 136

/* Domain-separation suffixes of FIPS 202, stored with the first appended bit in bit 0:
 * SHA-3 appends "01", SHAKE appends "1111", before pad10*1. */
#define KECCAK_SUFFIX_SHA3 0x02U
#define KECCAK_SUFFIX_SHA3_BITS 2
#define KECCAK_SUFFIX_SHAKE 0x0FU
#define KECCAK_SUFFIX_SHAKE_BITS 4

/* Absorbs the first msg_len_bits bits of msg, then the suffix_bits low bits of suffix and
 * the pad10*1 padding, and squeezes out_len bytes into out.
 *
 * Bit mapping (the Keccak team's convention, "Rule A"): whole bytes of msg are absorbed
 * unchanged, so byte-aligned messages give the standard digests. A partial last byte v with
 * r = msg_len_bits mod 8 valid bits at its high end (the CryptHash layout) contributes
 * v >> (8 - r), lowest bit first; its unused low bits are ignored. msg may be NULL when
 * msg_len_bits is 0.
 *
 * Returns 0, or -1 when rate_bytes is not a multiple of 8 in 8..200 or suffix_bits > 8. */
int keccak_sponge_bits(unsigned char *out, unsigned long long out_len, unsigned int rate_bytes,
                       unsigned int suffix, unsigned int suffix_bits, const unsigned char *msg,
                       unsigned long long msg_len_bits);

#endif /* KECCAK_H */
