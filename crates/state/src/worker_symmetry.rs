//! `--worker-symmetry`, the dynamic half: the key a state is stored under is a
//! member of its orbit under the permutations of the interchangeable ranks `W`
//! (`crate::worker_taint` decides `W` and where states hold ranks).
//!
//! For a permutation `π` of `W` (fixing every other rank), `π·s` moves process
//! `p`'s state to slot `π(p)` and renames every rank value `r` in it to `π(r)`:
//! the values in rank slots (rank variables, statuses' `MPI_SOURCE`), the
//! process numbers in pointer roots, and the source and destination of every
//! buffered message (the buffer keeps per-pair issue order; pairs are sorted
//! again). The path condition, the shared inputs and every other value stay.
//! The key of `s` is `π·s` for the `π` that sorts the workers by a hash of
//! their process state and their messages, each with its own rank written as
//! one marker and the other workers' ranks as another (ties keep rank order).
//! Any `π` is sound: two states get one key only if one is the image of the
//! other; a poor `π` only matches fewer states.
//!
//! States whose parts are not renamed here are their own key (always sound):
//! pending requests or multi-step calls, groups, user operators, derived
//! datatypes, unknown addresses (`MPI_Get_address`), attached buffers,
//! communicators other than `MPI_COMM_WORLD` and the processes' own
//! `MPI_COMM_SELF`,
//! windows, snapshots, messages holding pointers or requests, a rank slot
//! holding a symbolic value, a pointer into another process's memory.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use tass_dynamic::api::{HeapObject, Message, Pointer, Root, Value};
use tass_symbolic::api::{Expr, ExprFactory};

use crate::state::{ProcState, State, SystemState};
use crate::worker_taint::{RankSlot, WorkerSymmetry};

impl crate::engine::Engine {
    /// The key `state` is stored under with `--worker-symmetry`: a member of
    /// its orbit under `symmetry`'s permutations (`crate::worker_symmetry`).
    pub fn worker_key(&self, state: State, symmetry: &WorkerSymmetry) -> State {
        let f = self.factory();
        match permuted(f, &state.inner, symmetry) {
            Some(inner) => State::new(inner).seal(),
            None => state,
        }
    }
}

/// `π·s` for the sorting permutation, or `None` when it is the identity or
/// `s` has parts not renamed here.
fn permuted(f: &ExprFactory, s: &SystemState, sym: &WorkerSymmetry) -> Option<SystemState> {
    if !renamable(s) || s.procs.len() != sym.nprocs as usize {
        return None;
    }
    let n = sym.nprocs;
    let mut signed: Vec<(u64, u32)> = Vec::with_capacity(sym.workers.len());
    for &w in &sym.workers {
        // Own rank -> marker n, other workers -> marker n + 1 (not a bijection:
        // only for hashing).
        let map: Vec<u32> = (0..n)
            .map(|r| {
                if r == w {
                    n
                } else if sym.workers.contains(&r) {
                    n + 1
                } else {
                    r
                }
            })
            .collect();
        let renamed = rename_proc(f, &s.procs[w as usize], w, &map, sym);
        let renamed = renamed?;
        let mut h = DefaultHasher::new();
        crate::state::proc_hash(&renamed).hash(&mut h);
        for m in s.messages.iter().filter(|m| m.source == w || m.dest == w) {
            rename_message(m, &map).hash(&mut h);
        }
        signed.push((h.finish(), w));
    }
    signed.sort();
    let mut perm: Vec<u32> = (0..n).collect();
    for (i, (_, old)) in signed.iter().enumerate() {
        perm[*old as usize] = sym.workers[i];
    }
    if perm.iter().enumerate().all(|(i, p)| i as u32 == *p) {
        return None;
    }
    let mut procs: Vec<Option<Arc<ProcState>>> = vec![None; n as usize];
    for (old, ps) in s.procs.iter().enumerate() {
        procs[perm[old] as usize] = Some(rename_proc(f, ps, old as u32, &perm, sym)?);
    }
    let mut messages: Vec<Message> = s
        .messages
        .iter()
        .map(|m| rename_message(m, &perm))
        .collect();
    // Per pair the issue order is kept (a stable sort).
    messages.sort_by_key(|m| (m.source, m.dest));
    Some(SystemState {
        pc: s.pc,
        shared: Arc::clone(&s.shared),
        procs: procs
            .into_iter()
            .map(|p| p.expect("a permutation"))
            .collect(),
        messages: Arc::new(messages),
        comms: Arc::clone(&s.comms),
        windows: Arc::clone(&s.windows),
        snapshots: s.snapshots.clone(),
    })
}

/// Whether every part of `s` that may hold a rank is one this module renames.
fn renamable(s: &SystemState) -> bool {
    // Only the processes' own MPI_COMM_SELF (communicator p + 1 for process
    // p), which the program cannot name (`worker_taint` refuses it): the list
    // is the same after any renaming.
    s.comms.iter().enumerate().all(|(i, c)| {
        c.as_ref()
            .is_some_and(|c| c.members == [i as u32] && c.topology.is_none() && c.origin.is_none())
    }) && s.windows.is_empty()
        && s.snapshots.is_empty()
        && s.snapshots.loop_sync.is_none()
        && s.procs.iter().all(|p| {
            let m = &p.mpi;
            m.requests.is_empty()
                && m.stage == crate::mpi::CallStage::Start
                && m.groups.is_empty()
                && m.ops.is_empty()
                && m.attached.is_none()
                && m.datatypes.is_empty()
                && m.scratch.is_empty()
                // unknown addresses are named by their process's rank
                && m.addresses_made == 0
        })
        && s.messages.iter().all(|m| {
            let mut pointer = false;
            m.data.for_each_pointer(&mut |_| pointer = true);
            m.comm == 0 && m.request.is_none() && m.bsend_bytes.is_none() && !pointer
        })
}

fn rename_message(m: &Message, map: &[u32]) -> Message {
    let mut m = m.clone();
    m.source = map[m.source as usize];
    m.dest = map[m.dest as usize];
    m
}

/// Process `own`'s state with every rank `r < n` in it renamed to `map[r]`;
/// `None` if a rank slot is symbolic or a pointer leaves the process.
fn rename_proc(
    f: &ExprFactory,
    ps: &Arc<ProcState>,
    own: u32,
    map: &[u32],
    sym: &WorkerSymmetry,
) -> Option<Arc<ProcState>> {
    let mut out = (**ps).clone();
    let mut globals = (*ps.globals).clone();
    rename_slots(f, &mut globals, &sym.global_slots, map)?;
    for frame in out.stack.iter_mut() {
        if let Some(slots) = sym.local_slots.get(&frame.function) {
            let fr = Arc::make_mut(frame);
            rename_slots(f, &mut fr.locals, slots, map)?;
        }
    }
    // Pointers name their process: own-process roots follow the process.
    let mut has_pointer = false;
    let mut note = |_: &Pointer| has_pointer = true;
    globals.iter().for_each(|v| v.for_each_pointer(&mut note));
    for fr in &out.stack {
        fr.locals.iter().for_each(|v| v.for_each_pointer(&mut note));
    }
    for o in ps.heap.iter() {
        if let HeapObject::Live { value, .. } = o {
            value.for_each_pointer(&mut note);
        }
    }
    if has_pointer {
        let mut foreign = false;
        let new_own = map[own as usize];
        let mut move_root = |p: &Pointer| {
            p.map_root(|root| match root {
                Root::Global { proc, var } => {
                    foreign |= proc != own;
                    Root::Global { proc: new_own, var }
                }
                Root::Local { proc, frame, var } => {
                    foreign |= proc != own;
                    Root::Local {
                        proc: new_own,
                        frame,
                        var,
                    }
                }
                Root::Heap { proc, object } => {
                    foreign |= proc != own;
                    Root::Heap {
                        proc: new_own,
                        object,
                    }
                }
                shared @ Root::Shared(_) => shared,
            })
        };
        let mut same = |e: Expr| e;
        for v in globals.iter_mut() {
            *v = v.map(&mut move_root, &mut same);
        }
        for frame in out.stack.iter_mut() {
            let fr = Arc::make_mut(frame);
            for v in fr.locals.iter_mut() {
                *v = v.map(&mut move_root, &mut same);
            }
        }
        let heap: Vec<HeapObject> = ps
            .heap
            .iter()
            .map(|o| o.map_live(|value, extent| (value.map(&mut move_root, &mut same), extent)))
            .collect();
        out.heap = Arc::new(heap);
        if foreign {
            return None;
        }
    }
    out.globals = Arc::new(globals);
    Some(Arc::new(out))
}

fn rename_slots(
    f: &ExprFactory,
    values: &mut [Value],
    slots: &[RankSlot],
    map: &[u32],
) -> Option<()> {
    for slot in slots {
        match *slot {
            RankSlot::Value(i) => {
                let v = values.get_mut(i)?;
                *v = rename_rank(f, v, map)?;
            }
            RankSlot::StatusSource(i) => {
                let v = values.get_mut(i)?;
                if let Value::Struct(fields) = v {
                    let source = fields.first()?;
                    let renamed = rename_rank(f, source, map)?;
                    if renamed != *source {
                        Arc::make_mut(fields)[0] = renamed;
                    }
                }
            }
        }
    }
    Some(())
}

/// A rank value renamed: concrete ranks `< n` by `map`, other concrete values
/// and undefined ones as they are; `None` for a symbolic value.
fn rename_rank(f: &ExprFactory, v: &Value, map: &[u32]) -> Option<Value> {
    match v {
        Value::Undefined => Some(Value::Undefined),
        Value::Data(e) => {
            if tass_dynamic::api::is_undefined_data(f, *e) {
                return Some(v.clone());
            }
            let c = f.concrete_int_ref(*e)?;
            let r = u32::try_from(c).ok().filter(|r| (*r as usize) < map.len());
            match r {
                Some(r) if map[r as usize] != r => Some(Value::Data(f.int(map[r as usize]))),
                _ => Some(v.clone()),
            }
        }
        _ => None,
    }
}
