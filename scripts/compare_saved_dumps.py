# Compares two TASS_DUMP_SAVED files: a --jobs 1 run and a --jobs N run of one row
# (docs/PERFORMANCE.md, session 17, jobs21). Usage: python3 compare_saved_dumps.py ONE.txt PAR.txt
import sys, collections
def load(p):
    d=collections.defaultdict(list)
    for l in open(p):
        t,r,h=l.split()
        d[(t.removesuffix('+x'),int(r))].append(h)  # '+x': below a proviso full expansion
    return d
one=load(sys.argv[1]); par=load(sys.argv[2])
PREFIX=int(sys.argv[3]) if len(sys.argv)>3 else 0
s1=set(h for (t,r),v in one.items() if t=='new' for h in v)
seen1=set(h for (t,r),v in one.items() if t.startswith('seen') for h in v)
skip1=set(h for (t,r),v in one.items() if t=='seen-skip' for h in v)
print("jobs1: saved (new) lines", sum(len(v) for (t,r),v in one.items() if t=='new'), "distinct", len(s1), "distinct seen", len(seen1))
for k,v in sorted(par.items()): print("  par", k, len(v), "distinct", len(set(v)))
below=[h for (t,r),v in par.items() if t=='new' and r!=PREFIX for h in v]
bs=set(below)
print("par new below cut:", len(below), "distinct forms", len(bs), "=> stored twice (equal forms):", len(below)-len(bs))
notin=bs-s1
print("par saved below cut also saved by jobs1:", len(bs&s1))
print("par saved below cut NOT saved by jobs1:", len(notin), " of which jobs1 saw and skipped:", len(notin&skip1), " jobs1 never saw this form:", len(notin-seen1))
print("jobs1 saved not saved below cut by par:", len(s1-bs), "(of which saved in par prefix:", len((s1-bs)&set(h for (t,r),v in par.items() if t=='new' and r==PREFIX for h in v)),")")
seenpar=set(h for (t,r),v in par.items() if t.startswith('seen') for h in v)
print("distinct seen forms: jobs1", len(seen1), "par", len(seenpar), "par-only", len(seenpar-seen1), "jobs1-only", len(seen1-seenpar))
