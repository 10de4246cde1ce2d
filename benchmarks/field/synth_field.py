#!/usr/bin/env python3
"""synth_field.py: write N synthetic NGCC candidate packages made of the bundled baselines."""
# usage: synth_field.py OUT_DIR --algorithms N [--instances 4] [--seed S] [--quirks all|none|LIST]
#                       [--copy] [--baselines DIR]
#
# Each candidate cand<NN>/ is a package with an algorithm.json whose instances are the bundled
# reference implementations (SHA-256, SHA-512, SHA3-256, SHA3-512, SHAKE256, SM3) renamed: the
# header's ALGORITHM_INSTANCE becomes the candidate's instance name and the submitted KAT files
# are the baseline's under the new name (the digests stay those of the baseline, since the code
# is the same). Layouts and quirks (issue 10, "Packages as they really are") vary by candidate
# index; which baseline each instance copies rotates by a per-candidate offset drawn from the
# seed. Output depends only on the arguments (and the baselines read). benchmarks/field/README.md
# describes the shapes.
import argparse
import gzip
import io
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINES_DEFAULT = os.path.normpath(os.path.join(HERE, "..", "..", "bench", "algorithms"))

# name: (package folder, reference folder, core files, digest bits, instance suffix, kind)
BASELINES = {
    "SHA-256": ("sha2/SHA2", "SHA-256", ("sha256.c", "sha256.h"), 256, "256", "sha2"),
    "SHA-512": ("sha2/SHA2", "SHA-512", ("sha512.c", "sha512.h"), 512, "512", "sha2"),
    "SHA3-256": ("sha3/SHA3", "SHA3-256", (), 256, "256", "keccak"),
    "SHA3-512": ("sha3/SHA3", "SHA3-512", (), 512, "512", "keccak"),
    "SHAKE256": ("sha3/SHA3", "SHAKE256", (), 256, "XOF", "keccak"),
    "SM3": ("sm3/SM3", "SM3", ("sm3.c", "sm3.h"), 256, "256", "sm3"),
}
# The order instances are taken in, from a per-candidate offset: neighbours differ in family.
POOL = ("SHA-256", "SHA3-512", "SM3", "SHA-512", "SHA3-256", "SHAKE256")
KECCAK = ("keccak.c", "keccak.h")


def variant_call(base):
    """The header and body of a variant file of the one-folder shape calling base's code."""
    if BASELINES[base][5] == "keccak":
        rate = base.replace("-", "_")
        sfx = "SHAKE" if base.startswith("SHAKE") else "SHA3"
        return ('"keccak.h"', "return keccak_sponge_bits(digest, (unsigned long long)"
                "digest_len_bits / 8,\n        KECCAK_RATE_%s, KECCAK_SUFFIX_%s, "
                "KECCAK_SUFFIX_%s_BITS, msg, msg_len_bits);" % (rate, sfx, sfx))
    stem = BASELINES[base][2][0][:-2]
    return ('"%s.h"' % stem, "(void)digest_len_bits;\n    %s_hash_bits(digest, msg, "
            "msg_len_bits);\n    return 0;" % stem)


XOF_FROM_BITS = 128  # the extra output length declared with "from" on an XOF instance

# Quirks by candidate index i (cand01 is i = 0): cand01-cand03 cover every quirk but "declare";
# cand04 and cand05 add its two shapes.
QUIRKS = ("nesting", "others", "clutter", "crlf", "names", "headers", "declare")


def has_quirk(q, i):
    return {
        "nesting": i % 2 == 1,          # deep nesting, spaces and Chinese in names
        "others": i % 3 == 2,           # a self-assessment copy under Others/
        "clutter": i % 3 != 1,          # ICCS files, Makefile, a.out, .o in instance folders
        "crlf": i % 4 == 1,             # CRLF / mixed line endings in sources and KAT files
        "names": i % 3 == 1,            # lower-case instance names in capitalised folders
        "headers": i % 3 == 0,          # CryptHash_<Name>-<n>.h, without include guard
        "declare": i % 5 in (3, 4),     # 3: one folder, several instances; 4: XOF "from"
    }[q]


def parse_quirks(text):
    on = set()
    for tok in [t.strip() for t in text.split(",") if t.strip()]:
        neg = tok.startswith("-")
        name = tok[1:] if neg else tok
        names = set(QUIRKS) if name == "all" else set() if name == "none" else {name}
        if name not in QUIRKS and name not in ("all", "none"):
            raise ValueError("unknown quirk '%s' (known: all, none, %s)"
                             % (name, ", ".join(QUIRKS)))
        on = on - names if neg else on | names
    return on


def dumps(obj):
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def crlf(data, mixed=False):
    """CRLF line endings; mixed: only the first half of the lines."""
    lines = data.split(b"\n")
    cut = len(lines) // 2 if mixed else len(lines)
    return b"\n".join(l + b"\r" if k < cut and k < len(lines) - 1 else l
                      for k, l in enumerate(lines))


class Writer:
    """Writes files under OUT_DIR. Identical large files (the 2_12 KAT files) are hard links to
    the first copy written, unless --copy asks for copies or the file system refuses links."""

    def __init__(self, root, link):
        self.root, self.link = root, link
        self.first = {}
        self.files = self.bytes = self.linked = 0

    def put(self, rel, data, mode=0o644, share=None):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if share is not None and self.link and share in self.first:
            try:
                os.link(self.first[share], path)
                self.files += 1
                self.linked += 1
                return
            except OSError:
                pass
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, mode)
        self.files += 1
        self.bytes += len(data)
        if share is not None:
            self.first.setdefault(share, path)


class Baselines:
    """The bundled reference implementations and their KAT files, read once."""

    def __init__(self, root):
        self.root = root
        self.cache = {}

    def read(self, rel):
        if rel not in self.cache:
            with open(os.path.join(self.root, rel), "rb") as f:
                self.cache[rel] = f.read()
        return self.cache[rel]

    def ref(self, base, fname):
        pkg, folder = BASELINES[base][0], BASELINES[base][1]
        sub = "common" if fname in KECCAK else folder
        return self.read("%s/Implementations/Reference_Implementation/%s/%s" % (pkg, sub, fname))

    def kat(self, base, kset):
        pkg = BASELINES[base][0]
        name = "KAT_%s_%s.txt" % (kset, base)
        return self.read("%s/Test_Vectors/%s" % (pkg, name + (".gz" if kset == "2_12" else "")))

    def truncated_2_12(self, base, bits):
        """The 2_12 file of an XOF at a shorter output: its digests cut to `bits`."""
        key = ("trunc", base, bits)
        if key not in self.cache:
            text = gzip.decompress(self.kat(base, "2_12")).decode("ascii")
            self.cache[key] = gzip_bytes(truncate_kat(text, bits).encode("ascii"))
        return self.cache[key]


def truncate_kat(text, bits):
    out = []
    for line in text.split("\n"):
        if line.startswith("Dst_Len = "):
            line = "Dst_Len = %d" % bits
        elif line.startswith("Dst = "):
            line = line[:6 + bits // 4]
        out.append(line)
    return "\n".join(out)


def gzip_bytes(data):
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as g:
        g.write(data)
    return buf.getvalue()


class Instance:
    def __init__(self, cand, base, suffix):
        self.base = base
        self.bits = BASELINES[base][3]
        self.suffix = suffix
        lower = cand.quirk["names"]
        self.name = ("%s_%s" % (cand.name.lower(), suffix.lower().replace("-", "_")) if lower
                     else "%s-%s" % (cand.name, suffix))
        self.folder = "%s-%s" % (cand.name, suffix)
        # "discovered", "discovered-variant" (the variant folder's own header instance),
        # "declared-folder", "declared-from"
        self.shape = "discovered"
        self.source = None          # for "declared-from": the instance it comes from
        self.dir = None             # relative to the candidate folder


class Candidate:
    def __init__(self, i, n, width, seed, quirks):
        self.i = i
        self.id = "cand%0*d" % (width, i + 1)
        self.name = "Cand%0*d" % (width, i + 1)
        self.quirk = {q: q in quirks and has_quirk(q, i) for q in QUIRKS}
        self.variants = self.quirk["declare"] and i % 5 == 3
        self.xof_from = self.quirk["declare"] and i % 5 == 4 and n >= 2
        # SHA-3 instances take keccak.c from a common/ folder through a build override, or
        # carry their own copy; the XOF "from" shape keeps copies so the source instance's
        # files are all in its folder.
        self.common_keccak = (i // 2) % 2 == 0 and not (self.xof_from or self.variants)
        rng = random.Random("%s/%s" % (seed, self.id))
        offset = rng.randrange(len(POOL))
        pool = [POOL[(offset + k) % len(POOL)] for k in range(len(POOL))]
        if self.xof_from:
            pool.remove("SHAKE256")
            bases = ["SHAKE256"] + [pool[k % len(pool)] for k in range(n - 2)]
        else:
            bases = [pool[k % len(pool)] for k in range(n)]
        seen = {}
        self.instances = []
        for b in bases:
            suf = BASELINES[b][4]
            seen[suf] = seen.get(suf, 0) + 1
            if seen[suf] > 1:
                suf += "abcdefghijklmnopqrstuvwxyz"[seen[suf] - 1] if seen[suf] <= 26 \
                    else "v%d" % seen[suf]
            self.instances.append(Instance(self, b, suf))
        if self.xof_from:
            src = self.instances[0]
            extra = Instance(self, "SHAKE256", "XOF-%d" % XOF_FROM_BITS)
            extra.bits, extra.shape, extra.source = XOF_FROM_BITS, "declared-from", src
            self.instances.append(extra)
        if self.variants:
            for k, inst in enumerate(self.instances):
                inst.shape = "declared-folder" if k else "discovered-variant"
                if not self.quirk["names"]:
                    inst.name = "%s_%s" % (self.name, inst.suffix)
        if self.quirk["nesting"]:
            self.pkg = "%s 算法提交包" % self.name
            top = "%s/Implementations and Test_Vectors/%s_C" % (self.pkg, self.name)
            self.impl_root = top + "/API_CryptHash/Implementations/Reference_Implementation"
            self.kat_dir = top + "/Test_Vectors 测试向量"
        else:
            self.pkg = self.name
            self.impl_root = self.name + "/Implementations/Reference_Implementation"
            self.kat_dir = self.name + "/Test_Vectors"
        if self.variants:
            # the shape: …/API_CryptHash/Implementations/Reference_Implementation/<Name>
            if not self.quirk["nesting"]:
                self.impl_root = (self.name + "/Implementations/API_CryptHash/Implementations/"
                                  "Reference_Implementation")
            self.variant_dir = "%s/%s" % (self.impl_root, self.name)
        for k, inst in enumerate(self.instances):
            if inst.shape in ("declared-folder", "discovered-variant"):
                inst.dir = self.variant_dir
            elif inst.shape == "declared-from":
                inst.dir = inst.source.dir
            else:
                folder = inst.folder
                if self.quirk["nesting"] and k % 2 == 1:
                    folder += " 参考实现"
                inst.dir = "%s/%s" % (self.impl_root, folder)
        self.rng_seed = "%s/%s" % (seed, self.id)

    def header_name(self, inst):
        return ("CryptHash_%s-%s.h" % (self.name, inst.suffix) if self.quirk["headers"]
                else "CryptHash_AlgorithmInstance.h")


# ---- file contents ----

def instance_header(bl, cand, inst):
    text = bl.ref(inst.base, "CryptHash_AlgorithmInstance.h").decode()
    text = text.replace('#define ALGORITHM_INSTANCE "%s"' % inst.base,
                        '#define ALGORITHM_INSTANCE "%s"' % inst.name)
    if cand.quirk["headers"]:
        # no include guard, as some packages ship
        lines = text.split("\n")
        lines = [l for l in lines if not l.startswith("#ifndef CRYPTHASH_ALGORITHMINSTANCE_H")
                 and not l.startswith("#define CRYPTHASH_ALGORITHMINSTANCE_H")
                 and not l.startswith("#endif /* CRYPTHASH_ALGORITHMINSTANCE_H")]
        text = "\n".join(lines)
    return ("/* %s of %s: a copy of the bundled %s baseline (benchmarks/field/synth_field.py). */\n"
            % (inst.name, cand.name, inst.base) + text).encode()


def instance_source(bl, cand, inst):
    text = bl.ref(inst.base, "CryptHash_AlgorithmInstance.c").decode()
    return text.replace('#include "CryptHash_AlgorithmInstance.h"',
                        '#include "%s"' % cand.header_name(inst)).encode()


DRNG_H = """/* drng.h: the generator the KAT program draws messages from (a stand-in with the
 * ICCS interface shape, written for the synthetic field). */
#ifndef DRNG_H
#define DRNG_H

typedef struct {
    unsigned char state[64];
    unsigned long long counter;
} drng_state;

void drng_seed(drng_state *st, const unsigned char *seed, unsigned int seed_len);
void drng_generate(drng_state *st, unsigned char *out, unsigned long long out_bits);

#endif
"""

DRNG_C = """/* drng.c: a stand-in for the ICCS generator's DRNG, never part of the library. */
#include <string.h>

#include "drng.h"

void drng_seed(drng_state *st, const unsigned char *seed, unsigned int seed_len)
{
    unsigned int i;
    memset(st, 0, sizeof(*st));
    for (i = 0; i < 64; i++)
        st->state[i] = seed[i % seed_len];
}

void drng_generate(drng_state *st, unsigned char *out, unsigned long long out_bits)
{
    unsigned long long i, n = (out_bits + 7) / 8;
    for (i = 0; i < n; i++) {
        st->state[i % 64] = (unsigned char)(st->state[i % 64] * 33u + 17u + st->counter);
        out[i] = st->state[i % 64];
    }
    if (out_bits % 8)
        out[n - 1] &= (unsigned char)(0xFF00u >> (out_bits % 8));
    st->counter++;
}
"""

KAT_MAIN = """/* KAT_CryptHash.c: writes KAT_2_12_<instance>.txt of this instance and waits for a
 * key, as the generator programs shipped in packages do (a stand-in, never in the library). */
#include <stdio.h>

#include "%(header)s"
#include "drng.h"

static void put_hex(FILE *f, const unsigned char *p, unsigned long long n)
{
    unsigned long long i;
    for (i = 0; i < n; i++)
        fprintf(f, "%%02X", p[i]);
    fprintf(f, "\\n");
}

int main(void)
{
    static unsigned char msg[512], digest[DIGEST_BIT_LENGTH / 8 + 1];
    char name[128];
    drng_state st;
    FILE *f;
    unsigned long long n;

    snprintf(name, sizeof(name), "KAT_2_12_%%s.txt", ALGORITHM_INSTANCE);
    f = fopen(name, "w");
    if (f == NULL)
        return 1;
    drng_seed(&st, (const unsigned char *)"KAT_2_12", 8);
    for (n = 0; n <= 4096; n++) {
        drng_generate(&st, msg, n);
        if (CryptHash(DIGEST_BIT_LENGTH, msg, n, digest) != 0)
            return 1;
        fprintf(f, "Msg_Len = %%llu\\nMsg = ", n);
        put_hex(f, msg, (n + 7) / 8);
        fprintf(f, "Dst_Len = %%d\\nDst = ", DIGEST_BIT_LENGTH);
        put_hex(f, digest, DIGEST_BIT_LENGTH / 8);
        fprintf(f, "\\n");
    }
    fclose(f);
    printf("%%s written. Press Enter to exit.\\n", name);
    getchar();
    return 0;
}
"""

MAKEFILE = """CC = gcc
CFLAGS = -std=c99 -Wpedantic -Wall -Wextra -O2

a.out: KAT_CryptHash.c drng.c %(sources)s
\t$(CC) $(CFLAGS) -o $@ $^

clean:
\trm -f a.out *.o
"""

GENERATE_KAT = """#!/bin/sh
# Builds the KAT program and runs it (it waits for Enter at the end).
set -e
cd "$(dirname "$0")"
make
echo | ./a.out
"""


def junk(rng, n):
    """Bytes of a committed binary: an ELF magic, then noise."""
    return b"\x7fELF" + rng.getrandbits(8 * n).to_bytes(n, "little")


def core_files(cand, inst, own_keccak):
    files = list(BASELINES[inst.base][2])
    if BASELINES[inst.base][5] == "keccak" and (own_keccak or not cand.common_keccak):
        files += KECCAK
    return files


def write_folder(w, bl, cand, inst, rel, clutter, rng, own_keccak=False):
    """One instance folder: header, CryptHash source, the baseline's own sources, clutter."""
    use_crlf = cand.quirk["crlf"]
    hdr = instance_header(bl, cand, inst)
    src = instance_source(bl, cand, inst)
    w.put("%s/%s" % (rel, cand.header_name(inst)), crlf(hdr) if use_crlf else hdr)
    w.put("%s/CryptHash_AlgorithmInstance.c" % rel, crlf(src) if use_crlf else src)
    sources = ["CryptHash_AlgorithmInstance.c"]
    for k, f in enumerate(core_files(cand, inst, own_keccak)):
        data = bl.ref(inst.base, f)
        w.put("%s/%s" % (rel, f), crlf(data, mixed=k % 2 == 0) if use_crlf else data)
        if f.endswith(".c"):
            sources.append(f)
    if clutter:
        w.put(rel + "/drng.h", DRNG_H.encode())
        w.put(rel + "/drng.c", DRNG_C.encode())
        w.put(rel + "/KAT_CryptHash.c",
              (KAT_MAIN % {"header": cand.header_name(inst)}).encode())
        w.put(rel + "/Makefile", (MAKEFILE % {"sources": " ".join(sources)}).encode())
        w.put(rel + "/generate_kat.sh", GENERATE_KAT.encode(), mode=0o755)
        w.put(rel + "/a.out", junk(rng, 2048 + rng.randrange(2048)), mode=0o755)
        w.put(rel + "/CryptHash_AlgorithmInstance.o", junk(rng, 512 + rng.randrange(1024)))


def write_variant_folder(w, bl, cand):
    """The one-folder shape of issue 10 quirk 4: a header whose unconditional name and length
    the submitter edits per build (left at the first variant, which discovery finds and a build
    override keeps to its own files), one CryptHash source, and variant files that all define
    the same function, of which exactly one is linked per instance (the others are declared in
    algorithm.json "instances" with "folder", "sources" and "defines")."""
    rel = cand.variant_dir
    fn = "%s_variant_hash" % cand.name.lower()
    first = cand.instances[0]
    hdr = ("/* %(n)s: instance header; set ALGORITHM_INSTANCE and DIGEST_BIT_LENGTH for each "
           "build,\n * and link CryptHash_%(n)s.c with one %(n)s_<variant>.c. */\n"
           "#define ALGORITHM_INSTANCE \"%(i)s\"\n#define DIGEST_BIT_LENGTH %(b)d\n"
           "#define OUTPUT_BLANK_TEST_VECTORS 0\n\n"
           "int CryptHash(int digest_len_bits, const unsigned char *msg, "
           "unsigned long long msg_len_bits,\n              unsigned char *digest);\n"
           % {"n": cand.name, "i": first.name, "b": first.bits})
    src = ("/* %(n)s: the CryptHash entry point shared by every variant. */\n"
           "#include \"CryptHash_%(n)s.h\"\n\n#include <stddef.h>\n\n"
           "int %(fn)s(unsigned char *digest, int digest_len_bits, const unsigned char *msg,\n"
           "        unsigned long long msg_len_bits);\n\n"
           "int CryptHash(int digest_len_bits, const unsigned char *msg, "
           "unsigned long long msg_len_bits,\n              unsigned char *digest)\n{\n"
           "    if (digest == NULL || (msg == NULL && msg_len_bits != 0))\n        return -1;\n"
           "    if (digest_len_bits != DIGEST_BIT_LENGTH)\n        return -1;\n"
           "    return %(fn)s(digest, digest_len_bits, msg, msg_len_bits);\n}\n"
           % {"n": cand.name, "fn": fn})
    use_crlf = cand.quirk["crlf"]
    w.put("%s/CryptHash_%s.h" % (rel, cand.name), crlf(hdr.encode()) if use_crlf else hdr.encode())
    w.put("%s/CryptHash_%s.c" % (rel, cand.name), src.encode())
    cores = {}
    for inst in cand.instances:
        inc, call = variant_call(inst.base)
        var = ("/* %(n)s variant %(v)s: the %(b)s baseline. */\n#include %(inc)s\n\n"
               "int %(fn)s(unsigned char *digest, int digest_len_bits, const unsigned char *msg,\n"
               "        unsigned long long msg_len_bits)\n{\n    %(call)s\n}\n"
               % {"n": cand.name, "v": inst.suffix, "b": inst.base, "inc": inc, "fn": fn,
                  "call": call})
        w.put("%s/%s_%s.c" % (rel, cand.name, inst.suffix), var.encode())
        for f in BASELINES[inst.base][2] or KECCAK:
            cores.setdefault(f, inst.base)
    for f in sorted(cores):
        w.put("%s/%s" % (rel, f), bl.ref(cores[f], f))


def variant_sources(cand, inst):
    files = ["CryptHash_%s.c" % cand.name, "%s_%s.c" % (cand.name, inst.suffix)]
    return files + [f for f in BASELINES[inst.base][2] or KECCAK if f.endswith(".c")]


def write_kat(w, bl, cand, inst):
    """The submitted KAT files under the instance's name; the 2_12 file as .gz."""
    for kset in ("2_12", "2_23", "Loop"):
        name = "%s/KAT_%s_%s.txt" % (cand.kat_dir, kset, inst.name)
        if inst.shape == "declared-from":
            if kset == "Loop":
                continue  # the loop feeds digests back: a shorter output has no known answer here
            if kset == "2_12":
                w.put(name + ".gz", bl.truncated_2_12(inst.base, inst.bits),
                      share=("trunc", inst.base, inst.bits))
            else:
                text = bl.kat(inst.base, kset).decode("ascii")
                w.put(name, truncate_kat(text, inst.bits).encode("ascii"))
            continue
        if kset == "2_12":
            w.put(name + ".gz", bl.kat(inst.base, kset), share=(inst.base, kset))
        else:
            data = bl.kat(inst.base, kset)
            w.put(name, crlf(data) if cand.quirk["crlf"] and kset == "2_23" else data)


def algorithm_json(cand):
    obj = {
        "id": cand.id,
        "name": cand.name,
        "category": "cryptographic hash algorithm",
        "function": "hash",
        "parameter_sets": [inst.name for inst in cand.instances],
        "links": {
            "submission": {"label": "%s submission package" % cand.name,
                           "href": "https://ngcc.example.org/hash/round1/%s" % cand.id},
            "security_evaluation": {"label": "%s evaluation report" % cand.name,
                                    "href": "https://eval.example.org/reports/%s.pdf" % cand.id},
        },
    }
    build = {}
    if cand.variants:
        # the variant folder's own instance: every other C file of the folder stays out
        first = cand.instances[0]
        keep = set(variant_sources(cand, first))
        files = {"CryptHash_%s.c" % cand.name}
        for inst in cand.instances:
            files.update(variant_sources(cand, inst))
        build[first.name] = {"exclude": sorted(files - keep)}
    if cand.common_keccak:
        common = "%s/common" % cand.impl_root
        for inst in cand.instances:
            if BASELINES[inst.base][5] == "keccak" and inst.shape == "discovered":
                build[inst.name] = {"extra_sources": [common + "/keccak.c"],
                                    "include_dirs": [common]}
    if build:
        obj["build"] = build
    declared = {}
    for inst in cand.instances:
        defines = {"ALGORITHM_INSTANCE": "\"%s\"" % inst.name, "DIGEST_BIT_LENGTH": str(inst.bits)}
        if inst.shape == "declared-from":
            declared[inst.name] = {"from": inst.source.name, "defines": defines}
        elif inst.shape == "declared-folder":
            declared[inst.name] = {"folder": inst.dir, "sources": variant_sources(cand, inst),
                                   "defines": defines}
    if declared:
        obj["instances"] = declared
    return dumps(obj)


def write_candidate(w, bl, cand):
    rng = random.Random(cand.rng_seed + "/files")
    root = cand.id
    clutter = cand.quirk["clutter"]
    need_common = False
    if cand.variants:
        write_variant_folder(WriterAt(w, root), bl, cand)
    for inst in cand.instances:
        if inst.shape == "discovered":
            write_folder(WriterAt(w, root), bl, cand, inst, inst.dir, clutter, rng)
            need_common |= cand.common_keccak and BASELINES[inst.base][5] == "keccak"
        write_kat(WriterAt(w, root), bl, cand, inst)
    if need_common:
        for f in KECCAK:
            w.put("%s/%s/common/%s" % (root, cand.impl_root, f), bl.ref("SHA3-256", f))
    if cand.quirk["others"] and not cand.variants:
        inst = cand.instances[0]
        rel = "%s/Others/Self_Evaluation/CryptHash-%s-x86/%s" % (cand.pkg, cand.name, inst.folder)
        # a complete copy with its own KAT program, keccak.c included
        write_folder(WriterAt(w, root), bl, cand, inst, rel, True, rng, own_keccak=True)
        cand.others = rel
    else:
        cand.others = None
    if cand.quirk["nesting"]:
        doc = "%s/%s/Supporting_Documentation/%s 算法设计文档.txt" % (root, cand.pkg, cand.name)
        w.put(doc,
              ("%s：合成的候选算法（基于 hashbench 自带的基线实现）。\n"
               "%s: a synthetic candidate made of hashbench's bundled baselines.\n"
               % (cand.name, cand.name)).encode("utf-8"))
    w.put("%s/algorithm.json" % root, algorithm_json(cand))


class WriterAt:
    """A Writer with a path prefix."""

    def __init__(self, w, prefix):
        self.w, self.prefix = w, prefix

    def put(self, rel, data, mode=0o644, share=None):
        self.w.put("%s/%s" % (self.prefix, rel), data, mode, share)


def field_json(args, cands, quirks):
    return dumps({
        "generator": "benchmarks/field/synth_field.py",
        "arguments": {"algorithms": args.algorithms, "instances": args.instances,
                      "seed": args.seed, "quirks": sorted(quirks)},
        "candidates": [{
            "id": c.id, "name": c.name,
            "quirks": [q for q in QUIRKS if c.quirk[q]],
            "instances": [{"name": inst.name, "baseline": inst.base, "bits": inst.bits,
                           "shape": inst.shape, "folder": "%s/%s" % (c.id, inst.dir)}
                          for inst in c.instances],
            "ignored": ["%s/%s" % (c.id, c.others)] if c.others else [],
        } for c in cands],
    })


def main(argv):
    p = argparse.ArgumentParser(description="Write N synthetic NGCC candidate packages made of "
                                "the bundled reference baselines.")
    p.add_argument("out", metavar="OUT_DIR", help="folder to create (must be absent or empty)")
    p.add_argument("--algorithms", type=int, required=True, metavar="N")
    p.add_argument("--instances", type=int, default=4, metavar="K",
                   help="instances per candidate (default 4)")
    p.add_argument("--seed", type=int, default=1, metavar="S")
    p.add_argument("--quirks", default="all", metavar="all|none|LIST",
                   help="which quirks to use: all (default), none, or a comma-separated list of "
                   "%s; '-name' removes one, e.g. all,-declare" % ", ".join(QUIRKS))
    p.add_argument("--copy", action="store_true",
                   help="write each KAT_2_12 file as its own copy instead of hard links")
    p.add_argument("--baselines", default=BASELINES_DEFAULT, metavar="DIR",
                   help="the bundled baselines (default: bench/algorithms)")
    a = p.parse_args(argv)
    if a.algorithms < 1 or a.instances < 1:
        p.error("--algorithms and --instances must be at least 1")
    try:
        quirks = parse_quirks(a.quirks)
    except ValueError as e:
        p.error(str(e))
    if os.path.exists(a.out) and (not os.path.isdir(a.out) or os.listdir(a.out)):
        print("synth_field.py: %s exists and is not an empty folder" % a.out, file=sys.stderr)
        return 2

    t = time.monotonic()
    width = max(2, len(str(a.algorithms)))
    bl = Baselines(a.baselines)
    w = Writer(a.out, link=not a.copy)
    cands = [Candidate(i, a.instances, width, a.seed, quirks) for i in range(a.algorithms)]
    for c in cands:
        write_candidate(w, bl, c)
    w.put("field.json", field_json(a, cands, quirks))
    print("synth_field.py: %d candidates, %d instances: %d files (%d hard links), %.1f MiB "
          "written in %.1f s -> %s"
          % (len(cands), sum(len(c.instances) for c in cands), w.files, w.linked,
             w.bytes / 1048576, time.monotonic() - t, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
