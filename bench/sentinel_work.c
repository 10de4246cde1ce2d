/* sentinel_work.c — the sentinel workload: the SM3 compression function (GB/T 32905, the
 * national standard every NGCC candidate is compared with) over a fixed 4 KiB message that stays
 * in L1, so that it slows down for what slows hash code: a lower clock, time taken from the CPU,
 * and a sibling thread sharing the core's execution units and its L1 cache (a loop that works in
 * registers alone misses the last). It makes no system call and no allocation. */
#include "hbtiming.h"

static volatile uint32_t S_sink;

#define ROTL32(x, n) ((uint32_t)((x) << ((n) & 31) | (x) >> ((32 - ((n) & 31)) & 31)))
#define P0(x) ((x) ^ ROTL32((x), 9) ^ ROTL32((x), 17))
#define P1(x) ((x) ^ ROTL32((x), 15) ^ ROTL32((x), 23))

static void S_block(uint32_t v[8], const unsigned char *b)
{
	uint32_t w[68], w1[64], a = v[0], bb = v[1], c = v[2], d = v[3], e = v[4], f = v[5],
		g = v[6], h = v[7];
	int j;
	for (j = 0; j < 16; j++)
		w[j] = (uint32_t)b[4 * j] << 24 | (uint32_t)b[4 * j + 1] << 16 |
			(uint32_t)b[4 * j + 2] << 8 | b[4 * j + 3];
	for (j = 16; j < 68; j++)
		w[j] = P1(w[j - 16] ^ w[j - 9] ^ ROTL32(w[j - 3], 15)) ^ ROTL32(w[j - 13], 7) ^ w[j - 6];
	for (j = 0; j < 64; j++)
		w1[j] = w[j] ^ w[j + 4];
	for (j = 0; j < 64; j++) {
		uint32_t t = j < 16 ? 0x79cc4519u : 0x7a879d8au;
		uint32_t ss1 = ROTL32(ROTL32(a, 12) + e + ROTL32(t, j), 7), ss2 = ss1 ^ ROTL32(a, 12);
		uint32_t ff = j < 16 ? a ^ bb ^ c : (a & bb) | (a & c) | (bb & c);
		uint32_t gg = j < 16 ? e ^ f ^ g : (e & f) | (~e & g);
		uint32_t tt1 = ff + d + ss2 + w1[j], tt2 = gg + h + ss1 + w[j];
		d = c;
		c = ROTL32(bb, 9);
		bb = a;
		a = tt1;
		h = g;
		g = ROTL32(f, 19);
		f = e;
		e = P0(tt2);
	}
	v[0] ^= a, v[1] ^= bb, v[2] ^= c, v[3] ^= d, v[4] ^= e, v[5] ^= f, v[6] ^= g, v[7] ^= h;
}

static uint32_t S_run(const unsigned char *msg, uint32_t blocks)
{
	uint32_t v[8] = { 0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600, 0xa96f30bc, 0x163138aa,
		0xe38dee4d, 0xb0fb0e4e };
	uint32_t i;
	for (i = 0; i < blocks; i++)
		S_block(v, msg + 64 * (i % (HB_SENTINEL_MESSAGE / 64)));
	return v[0] ^ v[7];
}

hb_sentinel_reading hb_sentinel_time(hb_counter *c)
{
	static unsigned char msg[HB_SENTINEL_MESSAGE];
	hb_sentinel_reading r = { UINT64_MAX, 0 };
	uint32_t i, per = HB_SENTINEL_BLOCKS / HB_SENTINEL_CHUNKS;
	for (i = 0; i < HB_SENTINEL_MESSAGE; i++)
		msg[i] = (unsigned char)(i * 131 + 7);
	S_sink ^= S_run(msg, HB_SENTINEL_BLOCKS / 4); /* caches, predictors and the clock warm */
	/* the fastest chunk, scaled to the whole workload: an interrupt or a stolen slice lands in
	 * one chunk and is outvoted, a slower machine slows them all */
	for (i = 0; i < HB_SENTINEL_CHUNKS; i++) {
		uint64_t t0 = hb_now_ns(), c0 = hb_counter_read(c), dc, dt;
		S_sink ^= S_run(msg, per);
		dc = hb_counter_read(c) - c0;
		dt = hb_now_ns() - t0;
		if (dc < r.cycles) {
			r.cycles = dc;
			r.ns = dt;
		}
	}
	r.cycles *= HB_SENTINEL_CHUNKS;
	r.ns *= HB_SENTINEL_CHUNKS;
	return r;
}
