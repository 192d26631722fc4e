//! `tass compare --symmetry`: the representative of a state's orbit under the
//! permutations of the elements of symmetric input arrays (the comparative
//! paper's symmetry reduction theorem, Sec. 3.2; `tass-verify` decides its
//! hypotheses on the specification before asking for this).
//!
//! Renaming the input elements is a bijection on symbolic states that commutes
//! with every step (the semantics never looks at a symbol's name), so the
//! image `g·s` of a state under a permutation `g` of the elements has, step by
//! step, the images of `s`'s successors. When the specification's paths are
//! invariant under every `g`, every check on `g·s` (a property, or the
//! comparison of a completed path with every specification path) is the image of
//! the same check on `s`, true exactly when it is. So a search may go on from
//! any state of `s`'s orbit instead of `s`; going on from a representative
//! chosen by a fixed rule lets two states of one orbit meet.
//!
//! The catch is the inputs themselves: they stay in the state, and `g` moves
//! them. The representative keeps the inputs as they are and turns every
//! element at a position the state has read (`C`, the positions whose
//! elements of every array occur in its values or path condition, or were
//! consumed before) into a fresh *consumed* symbol, the same symbol in every
//! state; `g` only permutes positions inside `C`. A later read of an
//! element outside `C` gives the same value as in `g·s` (`g` fixes it); a read
//! of a consumed element gives a symbol constrained by nothing, which stands for
//! whatever `g·s` would have read: the representative over-approximates `g·s`
//! (every path of `g·s` is a path of the representative, with the consumed
//! symbols instantiated). A property proved on it holds on `g·s`; a violation on
//! it may not be real, which `tass-verify` settles by searching again without
//! the reduction, so the state notes when a consumed symbol was read.
//!
//! The rule for `g`: positions are numbered in the order their reads are first
//! met walking the state (processes in rank order, each one's globals, frames
//! and heap; messages; the path condition last), and position number `i`
//! becomes the `i`-th smallest of `C`. Any rule is sound (every representative
//! is in the orbit, up to the consumed symbols); this one makes states that
//! differ only by which process holds which block of inputs meet.
//!
//! States whose parts are not all walked here (pending nonblocking requests or
//! multi-step calls, windows, snapshots, an input array changed otherwise than
//! by the consuming) are returned as they are, which is always sound.

use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use tass_dynamic::api::{HeapObject, Pointer, Value};
use tass_symbolic::api::{Expr, ExprFactory, ExprView};

use crate::state::{ProcState, State, Status};

/// The symmetric input arrays of a comparison's implementation.
#[derive(Clone, Debug)]
pub struct InputSymmetry {
    /// Per array: its index among the shared inputs and its input symbol.
    arrays: Vec<(usize, Expr)>,
    /// Per array, per position: the consumed symbol standing for it.
    consumed: Vec<Vec<Expr>>,
    /// The arrays' common number of elements.
    extent: usize,
    /// What each expression met holds of the arrays.
    summaries: Summaries,
}

/// A representative and whether a consumed element was read to reach it.
pub struct Representative {
    pub state: State,
    /// A value in the state holds a consumed symbol: a position was read again
    /// after it had been permuted (the state over-approximates its orbit).
    pub read_consumed: bool,
}

impl InputSymmetry {
    /// The symmetry of the shared inputs named `names` (each an array of
    /// `extent` elements whose value in `initial` is its input symbol).
    pub(crate) fn new(
        f: &ExprFactory,
        initial: &State,
        inputs: &[(usize, String)],
        extent: usize,
    ) -> Result<InputSymmetry, String> {
        let mut arrays = Vec::new();
        let mut consumed = Vec::new();
        for (index, name) in inputs {
            let symbol = match initial.inner.shared.get(*index) {
                Some(Value::Data(e)) if f.is_symbol(*e) => *e,
                _ => return Err(format!("the input `{name}` is not a symbolic array")),
            };
            let ty = f.type_of(symbol);
            let Some(element) = ty.element().cloned() else {
                return Err(format!("the input `{name}` is not an array"));
            };
            let names: Vec<Expr> = (0..extent)
                .map(|k| f.symbol(&format!("{name}$consumed{k}"), element.clone()))
                .collect();
            arrays.push((*index, symbol));
            consumed.push(names);
        }
        Ok(InputSymmetry {
            arrays,
            consumed,
            extent,
            summaries: Summaries::default(),
        })
    }

    /// Whether `e` occurs in `pc` or any value of `state` outside the shared
    /// inputs (the implementation's initial path condition must not constrain
    /// the symmetric inputs).
    pub(crate) fn constrains(&self, f: &ExprFactory, pc: Expr) -> bool {
        let symbols: HashSet<Expr> = self.arrays.iter().map(|(_, s)| *s).collect();
        f.free_symbols(pc).iter().any(|s| symbols.contains(s))
    }
}

impl crate::engine::Engine {
    /// `tass compare --symmetry`: the symmetry of the input arrays `arrays`
    /// (each of `extent` elements), for [`Engine::symmetric_representative`].
    /// Refused when an array is not an input symbol of `initial` or
    /// `initial`'s path condition constrains one.
    pub fn input_symmetry(
        &self,
        initial: &State,
        arrays: &[String],
        extent: usize,
    ) -> Result<InputSymmetry, String> {
        let mut inputs = Vec::new();
        for name in arrays {
            let index = self
                .model()
                .inputs
                .iter()
                .position(|&v| self.model().var(v).name == *name)
                .ok_or_else(|| format!("`{name}` is not an input of the implementation"))?;
            inputs.push((index, name.clone()));
        }
        let symmetry = InputSymmetry::new(self.factory(), initial, &inputs, extent)?;
        if symmetry.constrains(self.factory(), initial.inner.pc) {
            return Err("the implementation's input constraints name them".to_string());
        }
        Ok(symmetry)
    }

    /// The representative of `state`'s orbit under `symmetry`
    /// (`crate::symmetry`): the state to go on from in a reduced search.
    pub fn symmetric_representative(
        &self,
        state: State,
        symmetry: &mut InputSymmetry,
    ) -> Representative {
        representative(self.factory(), state, symmetry)
    }
}

/// What one expression holds of the symmetric arrays: the positions read (with
/// the array), in the order a left-to-right walk first meets them; whether an
/// array occurs otherwise than read at a constant position; whether a consumed
/// symbol occurs. Expressions never change, so this is computed once each.
#[derive(Default)]
struct Summary {
    reads: Vec<(usize, usize)>,
    foreign: bool,
    consumed: bool,
}

impl Summary {
    fn absorb(&mut self, other: &Summary) {
        for read in &other.reads {
            if !self.reads.contains(read) {
                self.reads.push(*read);
            }
        }
        self.foreign |= other.foreign;
        self.consumed |= other.consumed;
    }
}

/// The summaries of the expressions met so far (a reduced search meets the same
/// values in state after state).
#[derive(Default)]
pub(crate) struct Summaries(HashMap<Expr, Arc<Summary>>);

impl std::fmt::Debug for Summaries {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(out, "Summaries({})", self.0.len())
    }
}

impl Clone for Summaries {
    fn clone(&self) -> Self {
        Summaries::default()
    }
}

/// Walks the expressions of a state in a fixed order, numbering the positions
/// of the symmetric arrays read in the order first met.
struct Walk<'a> {
    f: &'a ExprFactory,
    symmetry: &'a InputSymmetry,
    summaries: &'a mut HashMap<Expr, Arc<Summary>>,
    consumed: &'a HashSet<Expr>,
    total: Summary,
}

impl Walk<'_> {
    fn summary(&mut self, e: Expr) -> Arc<Summary> {
        if let Some(s) = self.summaries.get(&e) {
            return Arc::clone(s);
        }
        let mut out = Summary::default();
        if self.consumed.contains(&e) {
            out.consumed = true;
        } else if let Some(read) = self.read_of(e) {
            match read {
                Some(read) => out.reads.push(read),
                None => out.foreign = true,
            }
        } else if self.symmetry.arrays.iter().any(|(_, s)| *s == e) {
            out.foreign = true;
        } else {
            for child in self.f.children(e) {
                let inner = self.summary(child);
                out.absorb(&inner);
            }
        }
        let out = Arc::new(out);
        self.summaries.insert(e, Arc::clone(&out));
        out
    }

    /// `Some(Some((position, array)))` for a read of a symmetric array at a
    /// constant position, `Some(None)` for a read elsewhere, `None` for other
    /// expressions.
    fn read_of(&self, e: Expr) -> Option<Option<(usize, usize)>> {
        let ExprView::ArrayRead(a, i) = self.f.view(e) else {
            return None;
        };
        let array = self.symmetry.arrays.iter().position(|(_, s)| *s == a)?;
        Some(
            self.f
                .as_concrete_int(i)
                .and_then(|k| usize::try_from(k).ok())
                .filter(|k| *k < self.symmetry.extent)
                .map(|k| (k, array)),
        )
    }

    fn expr(&mut self, e: Expr) {
        if self.f.is_concrete(e) {
            return;
        }
        let summary = self.summary(e);
        self.total.absorb(&summary);
    }

    fn value(&mut self, v: &Value) {
        v.map(&mut |p: &Pointer| p.clone(), &mut |e| {
            self.expr(e);
            e
        });
    }
}

/// The positions each array's shared value has consumed, if it is the input
/// symbol with consumed symbols written at some positions (the same for every
/// array); `None` otherwise.
fn consumed_positions(
    f: &ExprFactory,
    state: &State,
    symmetry: &InputSymmetry,
) -> Option<Vec<usize>> {
    let mut common: Option<Vec<usize>> = None;
    for ((index, symbol), names) in symmetry.arrays.iter().zip(&symmetry.consumed) {
        let Some(Value::Data(e)) = state.inner.shared.get(*index) else {
            return None;
        };
        let positions: Vec<usize> = if e == symbol {
            Vec::new()
        } else {
            let ExprView::ConcreteArray { base, elements } = f.view(*e) else {
                return None;
            };
            if base != *symbol {
                return None;
            }
            let mut positions = Vec::new();
            for (k, slot) in elements.iter().enumerate() {
                match slot {
                    None => {}
                    Some(v) if names.get(k) == Some(v) => positions.push(k),
                    Some(_) => return None,
                }
            }
            positions
        };
        match &common {
            None => common = Some(positions),
            Some(c) if *c == positions => {}
            Some(_) => return None,
        }
    }
    Some(common.unwrap_or_default())
}

/// Whether the state has parts the walk does not cover.
fn has_unwalked_parts(state: &State) -> bool {
    let s = &state.inner;
    s.windows.iter().any(Option::is_some)
        || s.snapshots != crate::snapshot::Snapshots::default()
        || s.procs.iter().any(|p| {
            !p.mpi.requests.is_empty()
                || p.mpi.stage != crate::mpi::CallStage::Start
                || p.mpi.attached.is_some()
        })
}

/// The representative of `state`'s orbit (see the module documentation).
pub(crate) fn representative(
    f: &ExprFactory,
    state: State,
    symmetry: &mut InputSymmetry,
) -> Representative {
    let unchanged = |state| Representative {
        state,
        read_consumed: false,
    };
    if has_unwalked_parts(&state) {
        return unchanged(state);
    }
    let Some(already) = consumed_positions(f, &state, symmetry) else {
        return unchanged(state);
    };
    let consumed: HashSet<Expr> = symmetry.consumed.iter().flatten().copied().collect();
    let mut summaries = std::mem::take(&mut symmetry.summaries.0);
    let mut walk = Walk {
        f,
        symmetry,
        summaries: &mut summaries,
        consumed: &consumed,
        total: Summary::default(),
    };
    let s = &state.inner;
    for p in &s.procs {
        for v in p.globals.iter() {
            walk.value(v);
        }
        for frame in &p.stack {
            for v in &frame.locals {
                walk.value(v);
            }
        }
        for object in p.heap.iter() {
            if let HeapObject::Live { value, .. } = object {
                walk.value(value);
            }
        }
        if let Status::Terminated {
            exit_code: Some(e), ..
        } = &p.status
        {
            walk.expr(*e);
        }
        for e in [p.mpi.wtime, p.mpi.thread_level].into_iter().flatten() {
            walk.expr(e);
        }
    }
    for m in s.messages.iter() {
        walk.value(&m.data);
        walk.expr(m.tag);
        walk.expr(m.count);
    }
    walk.expr(s.pc);
    let total = walk.total;
    symmetry.summaries.0 = summaries;
    if total.foreign {
        return unchanged(state);
    }
    let read_consumed = total.consumed;
    // Only positions read in every array (or consumed before) move: a
    // position with an element still to be read keeps its place, so that
    // read gives the input itself.
    let arrays = symmetry.arrays.len();
    let mut first_met: Vec<usize> = Vec::new();
    for (k, _) in &total.reads {
        if !first_met.contains(k) {
            first_met.push(*k);
        }
    }
    let complete = |k: &usize| {
        already.contains(k) || total.reads.iter().filter(|(p, _)| p == k).count() == arrays
    };
    let mut order: Vec<usize> = first_met.into_iter().filter(complete).collect();
    for k in &already {
        if !order.contains(k) {
            order.push(*k);
        }
    }
    let mut slots = order.clone();
    slots.sort_unstable();
    let renaming: HashMap<usize, usize> =
        order.iter().copied().zip(slots.iter().copied()).collect();
    let identity = renaming.iter().all(|(a, b)| a == b);
    if identity && already.len() == slots.len() {
        return Representative {
            state,
            read_consumed,
        };
    }
    let state = renamed(f, state, symmetry, &renaming, &slots);
    Representative {
        state,
        read_consumed,
    }
}

/// `state` with every read of position `k` of a symmetric array turned into a
/// read of position `renaming[k]`, and the positions `consumed` of each array's
/// shared value replaced by its consumed symbols.
fn renamed(
    f: &ExprFactory,
    mut state: State,
    symmetry: &InputSymmetry,
    renaming: &HashMap<usize, usize>,
    consumed: &[usize],
) -> State {
    // Substituting `a := a'` where `a'[k] = a[renaming[k]]` turns `a[k]` into
    // `a[renaming[k]]` (reads of writes at constant positions are evaluated).
    let mut pairs = Vec::new();
    for (_, symbol) in &symmetry.arrays {
        let mut image = *symbol;
        for (&k, &to) in renaming {
            if k != to {
                image = f.array_write(
                    image,
                    f.int(k as u64),
                    f.array_read(*symbol, f.int(to as u64)),
                );
            }
        }
        if image != *symbol {
            pairs.push((*symbol, image));
        }
    }
    let mut memo: HashMap<Expr, Expr> = HashMap::new();
    let mut rename = |e: Expr| -> Expr {
        if pairs.is_empty() {
            return e;
        }
        *memo
            .entry(e)
            .or_insert_with(|| f.substitute_pairs(e, &pairs))
    };
    let mut same = |p: &Pointer| p.clone();
    let s = state.inner_mut();
    s.pc = rename(s.pc);
    for p in s.procs.iter_mut() {
        rename_proc(p, &mut same, &mut rename);
    }
    if s.messages.iter().any(|m| {
        let data = m.data.map(&mut same, &mut rename);
        data != m.data || rename(m.tag) != m.tag || rename(m.count) != m.count
    }) {
        let messages = Arc::make_mut(&mut s.messages);
        for m in messages.iter_mut() {
            m.data = m.data.map(&mut same, &mut rename);
            m.tag = rename(m.tag);
            m.count = rename(m.count);
        }
    }
    for ((index, symbol), names) in symmetry.arrays.iter().zip(&symmetry.consumed) {
        let mut value = *symbol;
        for &k in consumed {
            value = f.array_write(value, f.int(k as u64), names[k]);
        }
        if s.shared[*index] != Value::Data(value) {
            Arc::make_mut(&mut s.shared)[*index] = Value::Data(value);
        }
    }
    state.seal()
}

/// Renames the expressions of one process; its parts are copied only where
/// something changes (unchanged processes stay shared with other states).
fn rename_proc(
    p: &mut Arc<ProcState>,
    same: &mut dyn FnMut(&Pointer) -> Pointer,
    rename: &mut dyn FnMut(Expr) -> Expr,
) {
    let globals: Vec<Value> = p.globals.iter().map(|v| v.map(same, rename)).collect();
    if globals != *p.globals {
        Arc::make_mut(p).globals = Arc::new(globals);
    }
    for k in 0..p.stack.len() {
        let locals: Vec<Value> = p.stack[k]
            .locals
            .iter()
            .map(|v| v.map(same, rename))
            .collect();
        if locals != p.stack[k].locals {
            Arc::make_mut(&mut Arc::make_mut(p).stack[k]).locals = locals;
        }
    }
    if !p.heap.is_empty() {
        let heap: Vec<HeapObject> = p
            .heap
            .iter()
            .map(|o| o.map_live(|value, extent| (value.map(same, rename), extent)))
            .collect();
        if heap != *p.heap {
            Arc::make_mut(p).heap = Arc::new(heap);
        }
    }
    if let Status::Terminated {
        exit_code: Some(e), ..
    } = &p.status
    {
        let renamed = rename(*e);
        if renamed != *e {
            if let Status::Terminated { exit_code, .. } = &mut Arc::make_mut(p).status {
                *exit_code = Some(renamed);
            }
        }
    }
    let wtime = p.mpi.wtime.map(&mut *rename);
    let thread_level = p.mpi.thread_level.map(&mut *rename);
    if wtime != p.mpi.wtime || thread_level != p.mpi.thread_level {
        let p = Arc::make_mut(p);
        p.mpi.wtime = wtime;
        p.mpi.thread_level = thread_level;
    }
}
