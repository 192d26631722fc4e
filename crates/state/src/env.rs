//! The `Environment` of `tass-semantics` over a [`State`].

use std::sync::Arc;

use tass_dynamic::api::{ElemType, HeapObject, Message, Root, Value};
use tass_model::api::{FunctionId, LocationId, Model, TransitionId, VarId, VarScope};
use tass_semantics::api::{Environment, RemoteVar};
use tass_symbolic::api::{Expr, ExprFactory};

use crate::state::{Frame, State, Status};

/// Where each variable lives in its container: index into the shared vector
/// (inputs), the process's globals vector (`Model::globals ++ Model::outputs`:
/// every process has its own copy of each output, as of every global of a real
/// MPI program), or its function's frame (`params ++ locals`).
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    slot: Vec<u32>,
}

impl Layout {
    pub fn new(model: &Model) -> Layout {
        let mut slot = vec![u32::MAX; model.variables.len()];
        for (k, v) in model.inputs.iter().enumerate() {
            slot[v.0 as usize] = k as u32;
        }
        for (k, v) in model.globals.iter().chain(&model.outputs).enumerate() {
            slot[v.0 as usize] = k as u32;
        }
        for func in &model.functions {
            for (k, v) in func.params.iter().chain(&func.locals).enumerate() {
                slot[v.0 as usize] = k as u32;
            }
        }
        Layout { slot }
    }

    pub fn slot(&self, var: VarId) -> usize {
        self.slot.get(var.0 as usize).copied().unwrap_or(u32::MAX) as usize
    }
}

/// A state seen by process `proc`. Reads go straight to the shared structure;
/// writes copy (only) the components on the path to the change when shared.
pub(crate) struct ProcEnv<'a> {
    pub state: &'a mut State,
    pub proc: usize,
    pub model: &'a Model,
    pub factory: &'a ExprFactory,
    pub layout: &'a Layout,
}

impl ProcEnv<'_> {
    fn frame_mut(&mut self) -> Option<&mut Frame> {
        let p = self.proc;
        let s = self.state.inner_mut();
        let ps = Arc::make_mut(&mut s.procs[p]);
        ps.stack.last_mut().map(Arc::make_mut)
    }
}

/// The [`Environment`] methods an adaptor around a [`ProcEnv`] (in field
/// `$field`) passes through unchanged: every method but `get`, `remote_root`,
/// `spec_root` and the message queue (an adaptor sees no messages: the trait's
/// defaults). Each adaptor then writes only what it changes.
macro_rules! forward_to_proc_env {
    ($field:tt) => {
        fn model(&self) -> &tass_model::api::Model {
            self.$field.model()
        }
        fn factory(&self) -> &tass_symbolic::api::ExprFactory {
            self.$field.factory()
        }
        fn process(&self) -> usize {
            self.$field.process()
        }
        fn nprocs(&self) -> usize {
            self.$field.nprocs()
        }
        fn path_condition(&self) -> tass_symbolic::api::Expr {
            self.$field.path_condition()
        }
        fn set_path_condition(&mut self, pc: tass_symbolic::api::Expr) {
            self.$field.set_path_condition(pc)
        }
        fn root_of(&self, var: tass_model::api::VarId) -> tass_dynamic::api::Root {
            self.$field.root_of(var)
        }
        fn get_mut(
            &mut self,
            root: tass_dynamic::api::Root,
        ) -> Option<&mut tass_dynamic::api::Value> {
            self.$field.get_mut(root)
        }
        fn heap_object(&self, proc: usize, object: u32) -> Option<&tass_dynamic::api::HeapObject> {
            self.$field.heap_object(proc, object)
        }
        fn allocate(
            &mut self,
            value: tass_dynamic::api::Value,
            extent: tass_symbolic::api::Expr,
            elem: tass_dynamic::api::ElemType,
        ) -> tass_dynamic::api::Root {
            self.$field.allocate(value, extent, elem)
        }
        fn free(&mut self, object: u32) {
            self.$field.free(object)
        }
        fn location(&self) -> (tass_model::api::FunctionId, tass_model::api::LocationId) {
            self.$field.location()
        }
        fn set_location(&mut self, location: tass_model::api::LocationId) {
            self.$field.set_location(location)
        }
        fn stack_depth(&self) -> usize {
            self.$field.stack_depth()
        }
        fn push_frame(
            &mut self,
            function: tass_model::api::FunctionId,
            call_site: Option<tass_model::api::TransitionId>,
            locals: Vec<(tass_model::api::VarId, tass_dynamic::api::Value)>,
        ) {
            self.$field.push_frame(function, call_site, locals)
        }
        fn pop_frame(&mut self) -> Option<tass_model::api::TransitionId> {
            self.$field.pop_frame()
        }
        fn terminate(&mut self, exit_code: Option<tass_symbolic::api::Expr>) {
            self.$field.terminate(exit_code)
        }
    };
}
pub(crate) use forward_to_proc_env;

impl ProcEnv<'_> {
    /// The dynamic variable `PROC[rank].x` (`function` `None`) or
    /// `PROC[rank]@f.x` denotes in this state: an input, process `rank`'s
    /// global, or the local of its innermost frame of `f` (`no_frame` says why
    /// there is none, in the words of the pragma kind asking).
    pub fn remote_root(
        &self,
        (rank, function, var): RemoteVar,
        no_frame: impl Fn(&str) -> String,
    ) -> Result<Root, String> {
        let model = self.model;
        let name = &model.var(var).name;
        let proc = rank as u32;
        match (function, &model.var(var).scope) {
            (None, VarScope::Input) => Ok(Root::Shared(var)),
            (None, VarScope::ProcessGlobal | VarScope::Output) => Ok(Root::Global { proc, var }),
            (None, _) => Err(format!(
                "`{name}` in PROC[{rank}].{name} is not a global variable"
            )),
            (Some(f), _) => {
                let stack = &self.state.inner.procs[rank].stack;
                let Some(frame) = stack.iter().rposition(|fr| fr.function == f) else {
                    return Err(no_frame(&model.function(f).name));
                };
                Ok(Root::Local {
                    proc,
                    frame: frame as u32,
                    var,
                })
            }
        }
    }
}

impl Environment for ProcEnv<'_> {
    fn model(&self) -> &Model {
        self.model
    }
    fn factory(&self) -> &ExprFactory {
        self.factory
    }
    fn process(&self) -> usize {
        self.proc
    }
    fn nprocs(&self) -> usize {
        self.state.inner.procs.len()
    }
    fn path_condition(&self) -> Expr {
        self.state.inner.pc
    }
    fn set_path_condition(&mut self, pc: Expr) {
        if pc != self.state.inner.pc {
            self.state.inner_mut().pc = pc;
        }
    }

    fn root_of(&self, var: VarId) -> Root {
        match self.model.var(var).scope {
            VarScope::Input => Root::Shared(var),
            VarScope::ProcessGlobal | VarScope::Output => Root::Global {
                proc: self.proc as u32,
                var,
            },
            VarScope::Local(_) | VarScope::Bound => Root::Local {
                proc: self.proc as u32,
                frame: self.state.inner.procs[self.proc]
                    .stack
                    .len()
                    .saturating_sub(1) as u32,
                var,
            },
        }
    }

    fn get(&self, root: Root) -> Option<&Value> {
        let s = &self.state.inner;
        match root {
            Root::Shared(v) => s.shared.get(self.layout.slot(v)),
            Root::Global { proc, var } => s
                .procs
                .get(proc as usize)?
                .globals
                .get(self.layout.slot(var)),
            Root::Local { proc, frame, var } => {
                let f = s.procs.get(proc as usize)?.stack.get(frame as usize)?;
                if self.model.var(var).scope != VarScope::Local(f.function) {
                    return None;
                }
                f.locals.get(self.layout.slot(var))
            }
            Root::Heap { proc, object } => {
                match s.procs.get(proc as usize)?.heap.get(object as usize)? {
                    HeapObject::Live { value, .. } => Some(value),
                    HeapObject::Freed => None,
                }
            }
        }
    }

    fn get_mut(&mut self, root: Root) -> Option<&mut Value> {
        self.get(root)?;
        let slot_of = |v: VarId| self.layout.slot(v);
        let s = self.state.inner_mut();
        match root {
            Root::Shared(v) => Arc::make_mut(&mut s.shared).get_mut(slot_of(v)),
            Root::Global { proc, var } => {
                let ps = Arc::make_mut(&mut s.procs[proc as usize]);
                Arc::make_mut(&mut ps.globals).get_mut(slot_of(var))
            }
            Root::Local { proc, frame, var } => {
                let ps = Arc::make_mut(&mut s.procs[proc as usize]);
                let f = Arc::make_mut(&mut ps.stack[frame as usize]);
                f.locals.get_mut(slot_of(var))
            }
            Root::Heap { proc, object } => {
                let ps = Arc::make_mut(&mut s.procs[proc as usize]);
                match Arc::make_mut(&mut ps.heap).get_mut(object as usize)? {
                    HeapObject::Live { value, .. } => Some(value),
                    HeapObject::Freed => None,
                }
            }
        }
    }

    fn heap_object(&self, proc: usize, object: u32) -> Option<&HeapObject> {
        self.state.inner.procs.get(proc)?.heap.get(object as usize)
    }

    fn allocate(&mut self, value: Value, extent: Expr, elem: ElemType) -> Root {
        let p = self.proc;
        let s = self.state.inner_mut();
        let ps = Arc::make_mut(&mut s.procs[p]);
        let heap = Arc::make_mut(&mut ps.heap);
        heap.push(HeapObject::Live {
            value,
            extent,
            elem,
        });
        Root::Heap {
            proc: p as u32,
            object: (heap.len() - 1) as u32,
        }
    }

    fn is_program_args(&self, object: u32) -> bool {
        self.state.inner.procs[self.proc]
            .program_args
            .contains(&object)
    }

    fn free(&mut self, object: u32) {
        let p = self.proc;
        let s = self.state.inner_mut();
        let ps = Arc::make_mut(&mut s.procs[p]);
        if let Some(slot) = Arc::make_mut(&mut ps.heap).get_mut(object as usize) {
            *slot = HeapObject::Freed;
        }
    }

    fn location(&self) -> (FunctionId, LocationId) {
        let f = self.state.inner.procs[self.proc]
            .stack
            .last()
            .expect("location of a process without frames");
        (f.function, f.location)
    }

    fn set_location(&mut self, location: LocationId) {
        if let Some(f) = self.frame_mut() {
            f.location = location;
        }
    }

    fn stack_depth(&self) -> usize {
        self.state.inner.procs[self.proc].stack.len()
    }

    fn push_frame(
        &mut self,
        function: FunctionId,
        call_site: Option<TransitionId>,
        locals: Vec<(VarId, Value)>,
    ) {
        let func = self.model.function(function);
        let entry = func.body.as_ref().map(|b| b.entry).unwrap_or_default();
        let n = func.params.len() + func.locals.len();
        let mut values = vec![Value::Undefined; n];
        for (v, x) in locals {
            let k = self.layout.slot(v);
            if k < n {
                values[k] = x;
            }
        }
        let frame = Frame {
            function,
            location: entry,
            call_site,
            locals: values,
        };
        let p = self.proc;
        let s = self.state.inner_mut();
        Arc::make_mut(&mut s.procs[p]).stack.push(Arc::new(frame));
    }

    fn pop_frame(&mut self) -> Option<TransitionId> {
        let p = self.proc;
        let s = self.state.inner_mut();
        let ps = Arc::make_mut(&mut s.procs[p]);
        let f = ps.stack.pop()?;
        // The last call of a user operator's function in a reduction has
        // returned: its scratch blocks are freed.
        let depth = ps.stack.len();
        // The locals of the returned frame are gone: a later object in
        // their place gets a new unknown address.
        if !ps.mpi.addresses.is_empty() {
            crate::mpi::forget_frames(&mut ps.mpi.addresses, depth);
        }
        if ps.mpi.scratch.last().is_some_and(|b| b.depth == depth) {
            if let Some(done) = ps.mpi.scratch.pop() {
                for o in done.objects {
                    self.free(o);
                }
            }
        }
        f.call_site
    }

    fn terminate(&mut self, exit_code: Option<Expr>) {
        let p = self.proc;
        let s = self.state.inner_mut();
        let ps = Arc::make_mut(&mut s.procs[p]);
        let at = ps.stack.last().map(|f| (f.function, f.location));
        ps.stack.clear();
        if let Status::Terminated { at: Some(_), .. } = ps.status {
            return;
        }
        ps.status = Status::Terminated { at, exit_code };
    }

    fn messages(&self) -> &[Message] {
        &self.state.inner.messages
    }

    fn enqueue(&mut self, message: Message) {
        let s = self.state.inner_mut();
        let msgs = Arc::make_mut(&mut s.messages);
        let key = (message.source, message.dest);
        let at = msgs.partition_point(|m| (m.source, m.dest) <= key);
        msgs.insert(at, message);
    }

    fn dequeue(&mut self, index: usize) -> Option<Message> {
        if index >= self.state.inner.messages.len() {
            return None;
        }
        let s = self.state.inner_mut();
        Some(Arc::make_mut(&mut s.messages).remove(index))
    }
}

/// Changes the MPI part of the state of the process `env` runs.
pub(crate) fn set_mpi(env: &mut ProcEnv<'_>, change: impl FnOnce(&mut crate::mpi::MpiProc)) {
    let p = env.proc;
    let s = env.state.inner_mut();
    change(&mut Arc::make_mut(&mut s.procs[p]).mpi);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineConfig};
    use tass_dynamic::api::Message;
    use tass_model::api::*;
    use tass_semantics::api::Oracle;

    fn tiny_model() -> Arc<Model> {
        // void main() { return; }
        let mut m = ModelBuilder::new("m.c");
        let mut body = m.body();
        body.ret(None);
        m.add_function(body.function(FunctionId(0), "main", vec![], vec![], Type::Void));
        Arc::new(m.finish(FunctionId(0)))
    }

    #[test]
    fn messages_stay_ordered_by_sender_receiver_issue_and_copy_on_write() {
        let model = tiny_model();
        let f = ExprFactory::shared();
        let config = EngineConfig {
            nprocs: 3,
            ..EngineConfig::default()
        };
        let mut engine = Engine::new(
            Arc::clone(&model),
            Arc::clone(&f),
            Oracle::builtin(Arc::clone(&f)),
            config,
        )
        .unwrap();
        let original = engine.initial_state().unwrap();
        let mut state = original.clone();
        let layout = Layout::new(&model);
        let msg = |source, dest, tag: i64| Message {
            source,
            dest,
            tag: f.int(tag),
            comm: 0,
            data: Value::Data(f.int(tag)),
            count: f.int(1),
            request: None,
            bsend_bytes: None,
            signature: None,
            mixed_signature: None,
        };
        {
            let mut env = crate::mpi::Ctx {
                model: &model,
                f: &f,
                layout: &layout,
            }
            .env(&mut state, 0);
            env.enqueue(msg(1, 0, 1));
            env.enqueue(msg(0, 2, 2));
            env.enqueue(msg(1, 0, 3));
            env.enqueue(msg(0, 1, 4));
            let tags: Vec<SExprTag> = env
                .messages()
                .iter()
                .map(|m| (m.source, m.dest, m.tag))
                .collect();
            assert_eq!(
                tags,
                vec![
                    (0, 1, f.int(4)),
                    (0, 2, f.int(2)),
                    (1, 0, f.int(1)),
                    (1, 0, f.int(3))
                ]
            );
            let first = env.dequeue(2).unwrap();
            assert_eq!(first.tag, f.int(1));
            assert!(env.dequeue(9).is_none());
        }
        // The original state (shared before the changes) is untouched.
        assert!(original.inner.messages.is_empty());
        assert_eq!(state.inner.messages.len(), 3);
        assert_ne!(original, state);
    }

    type SExprTag = (u32, u32, tass_symbolic::api::Expr);
}
