#!/usr/bin/env python3
"""synth.py — synthesise a hashbench evidence tree (the data/ that hashgen reads) of any size,
so the generator can be benchmarked on 1000 algorithms before a campaign has measured them.

The files copy the shapes the campaign writes (bench/campaign.c, DESIGN.md "Evidence: the
contract between the two stages") byte for byte: jansson's JSON_INDENT(2) output, which
json.dumps(indent=2, ensure_ascii=False) reproduces, plus a final newline; SHA256SUMS in
sha256sum format sorted by path (strcmp order). Output depends only on the arguments.

usage: synth.py OUT_DIR --algorithms N --systems M [--seed S]
"""
import argparse
import hashlib
import json
import os
import random
import sys
import time

SIZES = (32, 128, 512, 1024, 4096, 8192, 16384, 65536)
ROUNDS, ROUND_MS, WARMUP_MS, MAX_CALLS = 5, 600, 200, 20000  # the "guide" profile
HASHBENCH = "0.1.0 (git 347ccff)"
CFLAGS = "-std=c99 -Wpedantic -Wall -Wextra -O2 -fPIC"
ROOT = "/srv/hashbench"
# (suffix, digest bits); the xof instance is measured with 256 output bits, like SHAKE256
INSTANCES = (("256", 256), ("384", 384), ("512", 512), ("xof", 256))
CATEGORIES = ("cryptographic hash algorithm",)
SUBMISSION_HOSTS = ("https://niccs.example.org/ngcc/hash/", "https://ngcc.example.cn/submissions/")
REPORT_HOSTS = ("https://eval.example.org/reports/", "https://cacr.example.cn/ngcc/evaluation/")

# Realistic machines, used in turn: x86_1 takes X86[0], x86_2 X86[1], arm_1 ARM[0], …
X86 = (
    dict(arch="x86_64", processor="Intel Core i7-1260P", machine=None, cpu=3,
         governor="performance", min_khz=400000, max_khz=2500000, boost=("turbo", "off"),
         smt="off", memory_mib=31787, os="Debian GNU/Linux 13 (trixie)",
         kernel="6.12.48+deb13-amd64", compiler="gcc (Debian 14.2.0-19) 14.2.0",
         build_tool="cmake version 3.31.6", cycles=1.00),
    dict(arch="x86_64", processor="AMD Ryzen 7 7840U",
         machine="Framework Laptop 13 (AMD Ryzen 7040Series)", cpu=4, governor="performance",
         min_khz=2400000, max_khz=2400000, boost=("boost", "off"), smt="on",
         memory_mib=63724, os="Ubuntu 24.04.3 LTS", kernel="6.8.0-85-generic",
         compiler="gcc (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0", build_tool="cmake version 3.28.3",
         cycles=0.93),
)
ARM = (
    dict(arch="aarch64", processor="Qualcomm Oryon", machine="ASUS Vivobook S 15", cpu=2,
         governor="performance", min_khz=2710000, max_khz=2710000, boost=("boost", "off"),
         smt="none", memory_mib=30562, os="Ubuntu 26.04.1 LTS", kernel="7.0.0-34-generic",
         compiler="gcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0", build_tool="cmake version 4.2.3",
         cycles=0.88),
    dict(arch="aarch64", processor="Ampere Altra Q80-30", machine=None, cpu=5,
         governor="performance", min_khz=2600000, max_khz=2600000, boost=None, smt="none",
         memory_mib=257389, os="Debian GNU/Linux 13 (trixie)", kernel="6.12.48+deb13-arm64",
         compiler="gcc (Debian 14.2.0-19) 14.2.0", build_tool="cmake version 3.31.6",
         cycles=1.07),
)
EPOCH = 1790935341  # 2026-10-02T10:02:21Z: the first synthetic campaign starts here


def dumps(obj):
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def utc(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(t)))


def hex256(rng):
    return "%064x" % rng.getrandbits(256)


class Writer:
    """Writes files under one system folder and remembers their SHA-256 for SHA256SUMS."""

    def __init__(self, root):
        self.root = root
        self.sums = []
        self.files = 0
        self.bytes = 0
        self.dirs = set()

    def put(self, rel, data, listed=True):
        path = os.path.join(self.root, rel)
        d = os.path.dirname(path)
        if d not in self.dirs:
            os.makedirs(d, exist_ok=True)
            self.dirs.add(d)
        with open(path, "wb") as f:
            f.write(data)
        self.files += 1
        self.bytes += len(data)
        if listed:
            self.sums.append((rel, hashlib.sha256(data).hexdigest()))


def system_names(m):
    # x86_1, arm_1, x86_2, arm_2, …
    return ["%s_%d" % ("x86" if i % 2 == 0 else "arm", i // 2 + 1) for i in range(m)]


def flavour(name):
    kind, k = name.split("_")
    table = X86 if kind == "x86" else ARM
    return table[(int(k) - 1) % len(table)]


def alg_ids(n):
    width = max(4, len(str(n)))
    return [("hash-%0*d" % (width, i), "Alg%0*d" % (width, i), "alg%0*d" % (width, i))
            for i in range(1, n + 1)]


class Algorithm:
    """What one submission fixes for every system: names, links, KAT files, relative speed."""

    def __init__(self, seed, ident, name, stem):
        rng = random.Random("%s/alg/%s" % (seed, ident))
        self.id, self.name = ident, name
        self.instances = [(stem + "_" + suf, bits) for suf, bits in INSTANCES]
        self.speed = {inst: rng.uniform(0.85, 1.2) for inst, _ in self.instances}
        self.kat = {inst: [(s, hex256(rng)) for s in ("2_12", "2_23", "Loop")]
                    for inst, _ in self.instances}
        self.entries = rng.choice((3, 4, 5, 8))
        self.catalog = {
            "id": ident, "name": name,
            "category": CATEGORIES[0], "function": "hash",
            "parameter_sets": [inst for inst, _ in self.instances],
            "links": {
                "submission": {"label": "%s submission package" % name,
                               "href": rng.choice(SUBMISSION_HOSTS) + ident},
                "security_evaluation": {"label": "%s report" % ident,
                                        "href": rng.choice(REPORT_HOSTS) + ident + ".pdf"},
            },
        }

    def kat_manifest(self):
        return "".join("%s  KAT_%s_%s.txt\n" % (h, s, inst)
                       for inst, _ in self.instances for s, h in self.kat[inst]).encode()


def system_json(name, fl, start, end):
    boost = None if fl["boost"] is None else {"name": fl["boost"][0], "state": fl["boost"][1]}
    warnings = []
    if fl["smt"] == "on":
        warnings.append("SMT is on: another hardware thread may share the core of CPU %d."
                        % fl["cpu"])
    sys_ = {"schema": "hashbench.system/1", "system": name, "arch": fl["arch"],
            "processor": fl["processor"]}
    if fl["machine"]:
        sys_["machine"] = fl["machine"]
    sys_.update({
        "cpu": fl["cpu"],
        "clock": {"governor": fl["governor"], "min_khz": fl["min_khz"], "max_khz": fl["max_khz"],
                  "boost": boost, "smt": fl["smt"]},
        "memory_mib": fl["memory_mib"], "os": fl["os"], "kernel": fl["kernel"],
        "compiler": fl["compiler"], "build_tool": fl["build_tool"],
        "virtual_machine": False, "hypervisor": None,
        "counter": {"name": "perf-cycles", "hz": None},
        "warnings": warnings,
        "campaign": {"start": utc(start), "end": utc(end), "profile": "guide",
                     "hashbench": HASHBENCH, "rounds": ROUNDS, "round_ms": ROUND_MS,
                     "warmup_ms": WARMUP_MS, "max_calls": MAX_CALLS,
                     "message_sizes": list(SIZES)},
    })
    return sys_


def write_system(out, seed, name, algs):
    fl = flavour(name)
    w = Writer(os.path.join(out, name))
    srng = random.Random("%s/system/%s" % (seed, name))
    start = EPOCH + 3 * 86400 * (int(name.split("_")[1]) - 1) + srng.randrange(0, 3600) \
        + (0 if name.startswith("x86") else 1800)
    clock = start + 40.0  # environment checks and the first builds
    khz = fl["max_khz"]
    ghz = khz / 1e6
    msg_seed = srng.getrandbits(63)

    for alg in algs:
        rng = random.Random("%s/system/%s/%s" % (seed, name, alg.id))
        w.put("kat/%s/kat.sha256" % alg.id, alg.kat_manifest())
        src_root = "%s/submissions/%s/%s/Implementations/Reference_Implementation" % (
            ROOT, alg.id, alg.name)
        for inst, bits in alg.instances:
            # ---- build and KAT check ----
            lib = "%s/build/work/lib/%s/%s-%016x.so" % (ROOT, alg.id, inst, rng.getrandbits(64))
            lib_sha = hex256(rng)
            src = "%s/%s" % (src_root, inst)
            build_cmd = ("gcc %s -shared -Wl,--no-undefined -o %s -I%s -I%s/common "
                         "%s/CryptHash_AlgorithmInstance.c %s/common/%s_core.c"
                         % (CFLAGS, lib, src, src_root, src, src_root, alg.name.lower()))
            files, log = [], [
                "hashbench %s KAT check of %s (reference), algorithm %s" % (HASHBENCH, inst, alg.id),
                "instance folder: %s" % src,
                "build: %s" % build_cmd,
                "library sha256: %s" % lib_sha,
            ]
            kat_dir = "%s/submissions/%s/%s/Test_Vectors" % (ROOT, alg.id, alg.name)
            for s, h in alg.kat[inst][:2]:
                fname = "KAT_%s_%s.txt" % (s, inst)
                raw = s == "2_12"
                detail = ("matches the manifest (raw form)" if raw
                          else "%d entries identical" % alg.entries)
                log += ["regenerating %s with %s" % (fname, lib),
                        "  regenerated sha256 %s" % h,
                        ("  manifest    sha256 %s (%s/kat.sha256)" % (h, kat_dir)) if raw else
                        ("  submitted   sha256 %s (%s/%s)" % (h, kat_dir, fname)),
                        "  PASS: %s" % detail]
                files.append({"name": fname, "sha256": h, "expected_sha256": h,
                              "entries": 0 if raw else alg.entries, "result": "PASS",
                              "detail": detail})
            log.append("result: PASS")
            w.put("kat/%s/%s.log" % (alg.id, inst), ("\n".join(log) + "\n").encode())
            w.put("kat/%s/%s.json" % (alg.id, inst), dumps({
                "schema": "hashbench.kat/1", "instance": inst, "implementation": "reference",
                "build_flags": "guide", "cflags": CFLAGS, "library_sha256": lib_sha,
                "files": files, "sets_mask": 3, "result": "PASS", "detail": None}))
            clock += rng.uniform(1.5, 4.0)

            # ---- one record per message size ----
            static_bytes = int(rng.gauss(12000, 600))
            factor = alg.speed[inst] * fl["cycles"]
            for size in SIZES:
                per_call = (200 + 10 * size) * factor * rng.uniform(0.97, 1.03)
                per_ns = per_call / ghz
                calls = min(MAX_CALLS, int(ROUND_MS * 1e6 / per_ns))
                warmup_calls = int(WARMUP_MS * 1e6 / per_ns)
                trials = []
                for _ in range(ROUNDS):
                    c = calls * per_call * (1 + abs(rng.gauss(0, 0.012)))
                    trials.append({"iterations": calls, "cycles": int(c),
                                   "ns": int(c / ghz * rng.uniform(0.998, 1.004))})
                t0 = clock
                clock += 0.15 + WARMUP_MS / 1000 + sum(t["ns"] for t in trials) / 1e9
                baseline = 1400 + 4 * rng.randint(-3, 3)
                rec = {
                    "schema": "hashbench.record/1", "system": name, "algorithm": alg.id,
                    "instance": inst, "implementation": "reference",
                    "operation": "hash_%d" % size, "message_bytes": size,
                    "output_bytes": bits // 8, "status": "ok", "kat": "PASS",
                    "profile": "guide",
                    "command": ["hashbench-measure", "--library", lib, "--bytes", str(size),
                                "--digest-bits", str(bits), "--cpu", str(fl["cpu"]),
                                "--counter", "perf-cycles", "--rounds", str(ROUNDS),
                                "--round-ms", str(ROUND_MS), "--warmup-ms", str(WARMUP_MS),
                                "--max-calls", str(MAX_CALLS)],
                    "build": {"flags": "guide", "profile": "reference", "cc": "gcc",
                              "cflags": CFLAGS, "command": build_cmd, "library": lib,
                              "library_sha256": lib_sha},
                    "environment": {"cpu": fl["cpu"], "counter": "perf-cycles",
                                    "governor": fl["governor"], "cur_khz": khz,
                                    "started": utc(t0), "finished": utc(clock)},
                    "input": {"generator": "splitmix64", "seed": msg_seed},
                    "calibration": {"warmup_calls": warmup_calls,
                                    "warmup_ns": WARMUP_MS * 1000000 + rng.randrange(200, 9000),
                                    "calls_per_round": calls, "round_ms": ROUND_MS,
                                    "max_calls": MAX_CALLS},
                    "trials": trials,
                    "resources": {"static_bytes": static_bytes, "baseline_rss_kib": baseline,
                                  "peak_rss_kib": baseline + 64 + 4 * rng.randint(0, 3)},
                }
                w.put("records/%s/%s__hash_%d.json" % (alg.id, inst, size), dumps(rec))

    w.put("system.json", dumps(system_json(name, fl, start, clock + 2)))
    w.sums.sort(key=lambda e: e[0].encode())  # strcmp order, as the campaign sorts
    w.put("SHA256SUMS", "".join("%s  %s\n" % (h, rel) for rel, h in w.sums).encode(),
          listed=False)
    return w.files, w.bytes


def main(argv):
    p = argparse.ArgumentParser(description="Synthesise a hashbench evidence tree for hashgen.")
    p.add_argument("out", metavar="OUT_DIR", help="folder to create (must be absent or empty)")
    p.add_argument("--algorithms", type=int, required=True, metavar="N")
    p.add_argument("--systems", type=int, required=True, metavar="M")
    p.add_argument("--seed", type=int, default=1, metavar="S")
    a = p.parse_args(argv)
    if a.algorithms < 1 or a.systems < 1:
        p.error("--algorithms and --systems must be at least 1")
    if os.path.exists(a.out) and (not os.path.isdir(a.out) or os.listdir(a.out)):
        print("synth.py: %s exists and is not an empty folder" % a.out, file=sys.stderr)
        return 2

    t = time.monotonic()
    algs = [Algorithm(a.seed, *ids) for ids in alg_ids(a.algorithms)]
    os.makedirs(os.path.join(a.out, "algorithms"), exist_ok=True)
    files = nbytes = 0
    for alg in algs:
        data = dumps(alg.catalog)
        with open(os.path.join(a.out, "algorithms", alg.id + ".json"), "wb") as f:
            f.write(data)
        files += 1
        nbytes += len(data)
    for name in system_names(a.systems):
        f, b = write_system(a.out, a.seed, name, algs)
        files += f
        nbytes += b
    print("synth.py: %d algorithms x %d systems: %d files, %.1f MiB in %.1f s -> %s"
          % (a.algorithms, a.systems, files, nbytes / 1048576, time.monotonic() - t, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
