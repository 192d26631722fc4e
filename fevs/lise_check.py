#!/usr/bin/env python3
"""fevs/lise_check.py -- concrete confirmation of the lise_* programs' verdicts.

Each lise_* program, built with -DFEVS_CONCRETE, prints one line
`SNAP ID RANK name=value ...` at every arrival at an invariant loop (at the
top of the body, which is the loop head's state since no guard has side
effects, and once after the loop: the exit arrival).  This script runs the
programs for several loop counts (sequential ones with gcc
-fsanitize=address,undefined, MPI ones under mpirun, in OpenMPI's default eager
mode and in zero-buffer mode), composes the k-th arrivals of every process
(and, for compare pairs, of the specification) as a collective invariant
does, evaluates the invariant on them, and checks what the header of each
program says: whether the invariant fails, whether an assertion fails, whether
the run hangs, whether the outputs agree.  It prints one line per run and
exits 1 if any expectation is not met.

    python3 fevs/lise_check.py [NAME-SUBSTRING]
"""
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix="lise_check_")
ZERO_BUFFER = ["--mca", "btl", "self,tcp", "--mca", "btl_tcp_eager_limit", "56",
               "--mca", "btl_tcp_rndv_eager_limit", "56"]
FAILURES = []
# stdout line-buffered (one write per line, even from several ranks), so the SNAP lines
# printed before a failing assert() survive the abort.
UNBUFFERED = os.path.join(TMP, "unbuffered.h")
open(UNBUFFERED, "w").write("#define _POSIX_C_SOURCE 200809L\n#include <stdio.h>\nstatic void __attribute__((constructor)) "
                            "unbuffered_stdout(void) { setvbuf(stdout, NULL, _IOLBF, BUFSIZ); }\n")


def build(src, defines, mpi):
    """A copy of src with `#define NAME value` replaced, compiled concretely."""
    text = open(os.path.join(HERE, src)).read()
    for name, value in defines.items():
        text, n = re.subn(r"^#define %s .*$" % name, "#define %s %s" % (name, value), text,
                          flags=re.M)
        assert n == 1, (src, name)
    tag = "_".join("%s%s" % kv for kv in defines.items()).replace(".", "p").replace("-", "m")
    base = os.path.join(TMP, os.path.basename(src)[:-2] + "_" + tag)
    open(base + ".c", "w").write(text)
    cc = ["mpicc"] if mpi else ["gcc", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    subprocess.run(cc + ["-std=c99", "-g", "-DFEVS_CONCRETE", "-I", os.path.join(HERE, "include"),
                         "-include", UNBUFFERED, "-o", base, base + ".c", "-lm"], check=True)
    return base


def run(exe, np=None, zero_buffer=False):
    cmd = [exe]
    if np is not None:
        cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(np)]
        cmd += (ZERO_BUFFER if zero_buffer else []) + [exe]
    p = subprocess.run(["timeout", "20"] + cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def parse(out):
    """{ID: {rank: [vars, ...]}} and {name: value}."""
    snaps, outs = {}, {}
    for line in out.splitlines():
        w = line.split()
        if len(w) >= 3 and w[0] == "SNAP":
            d = {}
            for kv in w[3:]:
                k, v = kv.split("=", 1)
                d[k] = [float(x) for x in v.split(",")] if "," in v or k in ("u", "v") else float(v)
            snaps.setdefault(w[1], {}).setdefault(int(w[2]), []).append(d)
        elif line.startswith("OUT "):
            k, v = line[4:].split(" = ")
            outs[k] = float(v)
    return snaps, outs


def composed(snaps, ident):
    """The k-th arrivals of every process, as [{rank: vars}]; None if counts differ."""
    per = snaps.get(ident, {})
    counts = {len(v) for v in per.values()}
    if len(counts) > 1:
        return None
    n = counts.pop() if counts else 0
    return [{r: per[r][k] for r in per} for k in range(n)]


def first_failure(snaps, ident, inv, aborted=False):
    """Index of the first composed arrival where inv fails, -1 if none, 'count' if
    the processes arrive a different number of times.  After an abort (mpirun kills
    the other ranks, whose last lines may be lost) only the arrivals every rank
    printed are composed."""
    per = snaps.get(ident, {})
    if aborted and per:
        n = min(len(v) for v in per.values())
        comp = [{r: per[r][k] for r in per} for k in range(n)]
    else:
        comp = composed(snaps, ident)
    if comp is None:
        return "count"
    for k, c in enumerate(comp):
        if not inv(c):
            return k
    return -1


def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def report(name, ok, detail):
    print("%-4s %-28s %s" % ("ok" if ok else "FAIL", name, detail))
    if not ok:
        FAILURES.append(name)


# ---- collective invariants (verify) ----

def inv_sum(c):
    return all(v["s"] == v["t"] for v in c.values())


def inv_stagger(n):
    return lambda c: all(0 <= c[p]["i"] <= 2 * n and c[p]["i"] == c[1 - p]["i"] and
               c[p]["x"] == 2 * ((int(c[p]["i"]) + 1 - p) // 2) for p in c)


def inv_stagger_wide(n, k):
    return lambda c: all(0 <= c[p]["i"] <= k * n and c[p]["i"] == c[1 - p]["i"] and
               c[p]["x"] == k * ((int(c[p]["i"]) + (k - 1) * (1 - p)) // k) for p in c)


def inv_count(n):
    # PROC[0].i: rank 0's arrival (any rank's when an abort lost rank 0's lines).
    return lambda c: all(0 <= v["i"] <= n and v["i"] == c.get(0, v)["i"] for v in c.values())


def inv_ring(n):
    # PROC[0]@main.r: every rank's k-th arrival is at rank 0's round.
    return lambda c: all(0 <= v["r"] <= n and v["r"] == c.get(0, v)["r"] for v in c.values())


def inv_sum_round(c):
    return inv_sum(c) and all(v["round"] == c.get(0, v)["round"] for v in c.values())


def inv_ok(c):
    return all(v["ok"] == 1 for v in c.values())


def check_verify(name, src, defines, np, ident, inv, expect_inv_fail, expect_rc_fail,
                 modes=(False,), extra=None, expect_hang=False):
    exe = build(src, defines, np is not None)
    for zero in modes:
        rc, out, err = run(exe, np, zero)
        snaps, outs = parse(out)
        label = "%s %s%s%s" % (name, " ".join("%s=%s" % kv for kv in defines.items()),
                               " np=%s" % np if np else "", " zero-buffer" if zero else "")
        if expect_hang:
            report(label, rc == 124, "rc=%d (124 = killed by timeout 20: hangs)" % rc)
            continue
        f = first_failure(snaps, ident, inv, rc != 0)
        inv_failed = f != -1
        ok = inv_failed == expect_inv_fail and (rc != 0) == expect_rc_fail and rc != 124
        detail = "rc=%d invariant %s" % (rc, "holds at every arrival" if not inv_failed else
                                         "fails at composed arrival %s" % (f if f == "count" else f + 1))
        if extra is not None:
            good, msg = extra(snaps, outs)
            ok = ok and good
            detail += "; " + msg
        if "runtime error" in err or "AddressSanitizer" in err:
            ok = False
            detail += "; sanitizer: " + err.strip().splitlines()[0]
        report(label, ok, detail)


# ---- joint invariants (compare) ----

def check_compare(name, spec, impl, defines, np, inv_by_id, expect_fail, outputs_agree):
    spec_exe = build(spec, defines, False)
    impl_exe = build(impl, defines, np is not None)
    rc_s, out_s, err_s = run(spec_exe)
    for zero in ((False, True) if np else (False,)):
        rc_i, out_i, err_i = run(impl_exe, np, zero)
        ss, so = parse(out_s)
        si, oi = parse(out_i)
        label = "%s %s%s%s" % (name, " ".join("%s=%s" % kv for kv in defines.items()),
                               " np=%s" % np if np else "", " zero-buffer" if zero else "")
        failed = None
        for ident, inv in inv_by_id.items():
            ci = composed(si, ident)
            cs = ss.get(ident, {}).get(0, [])
            if ci is None or len(ci) != len(cs):
                failed = "%s: %s arrivals against the specification's %d" % (
                    ident, "unequal" if ci is None else len(ci), len(cs))
                k = next((k for k in range(min(len(cs), len(ci or []))) if not inv(ci[k], cs[k])), None)
                if k is not None:
                    failed = "%s fails at arrival %d" % (ident, k + 1)
                break
            k = next((k for k in range(len(cs)) if not inv(ci[k], cs[k])), None)
            if k is not None:
                failed = "%s fails at arrival %d" % (ident, k + 1)
                break
        agree = set(so) == set(oi) and all(close(so[k], oi[k]) for k in so)
        ok = (failed is not None) == expect_fail and agree == outputs_agree and rc_s == 0 and rc_i == 0
        detail = "invariant %s; outputs %s" % (failed or "holds at every arrival",
                                              "agree" if agree else "differ: %s" % {
                                                  k: (so.get(k), oi.get(k)) for k in so if
                                                  not close(so[k], oi.get(k, float("nan")))})
        for err in (err_s, err_i):
            if "runtime error" in err or "AddressSanitizer" in err:
                ok = False
                detail += "; sanitizer: " + err.strip().splitlines()[0]
        report(label, ok, detail)


def inv_mean(ci, cs):
    x = ci[0]
    return x["i"] == cs["i"] and close(x["x"] * x["i"], cs["s"])


def inv_fib(ci, cs):
    x = ci[0]
    return (x["j"] > 0 and x["k"] > 0 and all(close(x[v], cs[v]) for v in ("j", "k", "p", "err")))


def inv_outer(ci, cs):
    return ci[0]["i"] == cs["i"] and ci[0]["sum"] == cs["sum"]


def inv_inner(ci, cs):
    x = ci[0]
    return x["i"] == cs["i"] and x["j"] == cs["j"] and cs["sum"] == x["sum"] + x["i"] * x["t"]


def inv_time(ci, cs):
    for v in ci.values():
        if v["t"] != cs["t"]:
            return False
        vals = v["v"] if isinstance(v["v"], list) else [v["v"]]
        first = int(v["first"])
        if any(vals[j] != cs["u"][first + j] for j in range(len(vals))):
            return False
    return True


def fib_exact(tol, absolute):
    """Both fib programs over the rationals: the list of (j, k, p, err) arrivals."""
    j, k, p, err = Fraction(1), Fraction(1), Fraction(1), Fraction(1)
    arr = [(j, k, p, err)]
    while err >= tol and len(arr) < 200:
        if absolute is None:          # specification
            i, j = j, k
            k = i + j
            r = k / j
            err = r - p if r >= p else p - r
            p = r
        else:                         # implementation
            k = j + k
            j = k - j
            err = k / j - p
            p = err + p
            if absolute and err < 0:
                err = -err
        arr.append((j, k, p, err))
    return arr


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    sel = lambda n: only in n
    M = (False, True)
    if sel("race"):
        for np in (3, 10):
            for n in (0, 1, 2, 3, 5):
                check_verify("race", "mpi/lise_race.c", {"N": n}, np, "SUM", inv_sum, n >= 2, False, M)
                check_verify("race_fixed", "mpi/lise_race_fixed.c", {"N": n}, np, "SUM", inv_sum_round,
                             False, False, M)
                # the paper's form (`while (1)`): the concrete build stops after ROUNDS rounds;
                # at ROUNDS = 2 the timing of one run on a loaded machine may hide the race
                if n != 2:
                    check_verify("race_paper", "mpi/lise_race_paper.c", {"ROUNDS": n}, np, "SUM",
                                 inv_sum, n >= 2, False, M)
        for n in (0, 1, 3, 5):
            # one sender: rank 0's round takes exactly its one message
            check_verify("race_paper", "mpi/lise_race_paper.c", {"ROUNDS": n}, 2, "SUM", inv_sum,
                         False, False, M)
    if sel("stagger"):
        for n in (0, 1, 2, 3, 7):
            x_ok = lambda s, o, n=n: (o.get("x0") == 2 * n and o.get("x1") == 2 * n, "x = %s" % o)
            check_verify("stagger", "mpi/lise_stagger.c", {"N": n}, 2, "I", inv_stagger(n), False, False,
                         M, x_ok)
        for n in (0, 1, 2, 3):
            check_verify("stagger_bad", "mpi/lise_stagger_bad.c", {"N": n}, 2, "I", inv_stagger(n),
                         n >= 1, n >= 1, M)
    if sel("wide"):
        for n in (0, 1, 2, 3):
            x_ok = lambda s, o, n=n: (o.get("x0") == 6 * n and o.get("x1") == 6 * n, "x = %s" % o)
            check_verify("stagger_wide", "mpi/lise_stagger_wide.c", {"N": n}, 2, "W",
                         inv_stagger_wide(n, 6), False, False, M, x_ok)
            check_verify("stagger_wide_bad", "mpi/lise_stagger_wide_bad.c", {"N": n}, 2, "W",
                         inv_stagger_wide(n, 6), n >= 1, n >= 1, M)
    if sel("count"):
        for np in (10, 4):
            for n in (0, 1, 4, 9):
                check_verify("count", "mpi/lise_count.c", {"N": n}, np, "COUNT", inv_count(n), False,
                             False)
            for n in (0, 1, 2, 3, 4, 5):
                check_verify("count_bad", "mpi/lise_count_bad.c", {"N": n}, np, "COUNT", inv_count(n),
                             n % 2 == 1, n % 2 == 1)
    if sel("ring"):
        for np in (10, 3):
            for n in (0, 1, 3, 8):
                tok = lambda s, o, n=n, np=np: (o.get("token") == n * np * (np - 1) // 2,
                                                "token = %s" % o.get("token"))
                check_verify("ring", "mpi/lise_ring.c", {"N": n}, np, "ROUND", inv_ring(n), False,
                             False, M, tok)
            for n in (0, 1, 3):
                check_verify("ring_bad", "mpi/lise_ring_bad.c", {"N": n}, np, "ROUND", inv_ring(n),
                             False, False, (False,))
                check_verify("ring_bad", "mpi/lise_ring_bad.c", {"N": n}, np, "ROUND", inv_ring(n),
                             False, False, (True,), expect_hang=n >= 1)
    if sel("matrix"):
        for n in (0, 1, 2, 5, 9):
            for ident in ("ROWS", "COLS"):
                check_verify("matrix " + ident, "seq/lise_matrix.c", {"N": n}, None, ident, inv_ok,
                             False, False)
        for n in (0, 1, 2, 5):
            check_verify("matrix_bad ROWS", "seq/lise_matrix_bad.c", {"N": n}, None, "ROWS", inv_ok,
                         n >= 1, n >= 1)
    if sel("mean"):
        for n in (1, 2, 5, 17):
            check_compare("mean", "seq/lise_mean_spec.c", "seq/lise_mean_running.c", {"N": n}, None,
                          {"STEP": inv_mean}, False, True)
        for n in (1, 2, 5):
            check_compare("mean_bad", "seq/lise_mean_spec.c", "seq/lise_mean_running_bad.c", {"N": n},
                          None, {"STEP": inv_mean}, True, False)
    if sel("fib"):
        for tol in ("0.5", "0.1", "1e-3", "1e-6", "1e-12"):
            check_compare("fib", "seq/lise_fib_spec.c", "seq/lise_fib_impl.c", {"TOL": tol}, None,
                          {"GOLD": inv_fib}, False, True)
            t = Fraction(tol)
            spec, impl = fib_exact(t, None), fib_exact(t, True)
            report("fib exact TOL=%s" % tol, spec == impl,
                   "over the rationals: %d arrivals each, every (j, k, p, err) equal" % len(spec)
                   if spec == impl else "differ")
        for tol in ("0.75", "0.5", "1e-3", "1e-6", "2"):
            t = float(tol)
            check_compare("fib_bad", "seq/lise_fib_spec.c", "seq/lise_fib_impl_bad.c", {"TOL": tol},
                          None, {"GOLD": inv_fib}, t <= 1, t > 0.5)
            spec, impl = fib_exact(Fraction(tol), None), fib_exact(Fraction(tol), False)
            report("fib_bad exact TOL=%s" % tol, (spec != impl) == (t <= 1),
                   "over the rationals: %s" % ("differ" if spec != impl else "equal"))
    if sel("nested"):
        for n in (0, 1, 2, 6, 30):
            check_compare("nested", "seq/lise_nested_spec.c", "seq/lise_nested_impl.c", {"N": n}, None,
                          {"OUTER": inv_outer, "INNER": inv_inner}, False, True)
        for n in (0, 1, 2, 6):
            check_compare("nested_bad", "seq/lise_nested_spec.c", "seq/lise_nested_impl_bad.c", {"N": n},
                          None, {"OUTER": inv_outer, "INNER": inv_inner}, n >= 1, n == 0)
    if sel("diffusion"):
        for np in (10, 3):
            for nt in (0, 1, 4, 12):
                check_compare("diffusion", "mpi/lise_diffusion_spec.c", "mpi/lise_diffusion_par.c",
                              {"NT": nt}, np, {"TIME": inv_time}, False, True)
        for nt in (0, 1, 4):
            check_compare("diffusion_bad", "mpi/lise_diffusion_spec.c", "mpi/lise_diffusion_par_bad.c",
                          {"NT": nt}, 10, {"TIME": inv_time}, nt >= 1, nt == 0)
    print("%d failure(s)%s" % (len(FAILURES), ": " + ", ".join(FAILURES) if FAILURES else ""))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
