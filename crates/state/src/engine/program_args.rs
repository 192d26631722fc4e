//! The command line `main` receives when the user gives one (`tass verify
//! FILE -- ARG...`): as C's startup does, each string is copied into its own
//! block (writable, NUL-terminated) and `argv` points to an array of pointers to
//! them ending with a null pointer. The blocks live on the process's heap but
//! belong to no `malloc`: they are listed in `ProcState::program_args`, so that
//! freeing one is reported and none counts as a leak.

use std::sync::Arc;

use tass_dynamic::api::{ElemType, Pointer, Step, Value};
use tass_model::api::{ExprKind, Model, Statement, VarId};
use tass_semantics::api::Environment;
use tass_symbolic::api::{ExprFactory, Type};

use crate::env::ProcEnv;

/// The values of `main`'s `argc` and `argv` for one process.
pub(super) struct CommandLine {
    argc: Value,
    argv: Value,
}

impl CommandLine {
    /// The value of `main`'s argument `v` (`argc` is the first, `argv` the
    /// second), `None` for any other variable.
    pub(super) fn value_of(&self, model: &Model, v: VarId) -> Option<Value> {
        match model.main_arguments.iter().position(|&p| p == v) {
            Some(0) => Some(self.argc.clone()),
            Some(1) => Some(self.argv.clone()),
            _ => None,
        }
    }
}

/// Allocates the strings of `argv` (program name first) and the pointer array
/// in the heap of `env`'s process and records the blocks as the command line's.
/// `None` when `argv` is empty (there is always a program name).
pub(super) fn command_line(
    f: &ExprFactory,
    env: &mut ProcEnv<'_>,
    argv: &[String],
) -> Option<CommandLine> {
    if argv.is_empty() {
        return None;
    }
    let mut blocks = Vec::with_capacity(argv.len() + 1);
    let mut pointers = Vec::with_capacity(argv.len() + 1);
    for arg in argv {
        let mut chars: Vec<_> = arg.bytes().map(|b| f.char(b as u32)).collect();
        chars.push(f.char(0));
        let n = chars.len();
        let text = f.array_literal(Type::array(Type::Char, Some(f.int(n))), &chars);
        let root = env.allocate(Value::Data(text), f.int(n), ElemType::Char);
        pointers.push(Value::Pointer(Pointer::to(root, [Step::Index(f.int(0))])));
        blocks.push(heap_object(root));
    }
    pointers.push(Value::Pointer(Pointer::Null));
    let n = pointers.len();
    let array = env.allocate(
        Value::Array(Arc::new(pointers)),
        f.int(n),
        ElemType::Pointer,
    );
    blocks.push(heap_object(array));
    let p = env.proc;
    Arc::make_mut(&mut env.state.inner_mut().procs[p]).program_args = blocks;
    Some(CommandLine {
        argc: Value::Data(f.int(argv.len())),
        argv: Value::Pointer(Pointer::to(array, [Step::Index(f.int(0))])),
    })
}

fn heap_object(root: tass_dynamic::api::Root) -> u32 {
    match root {
        tass_dynamic::api::Root::Heap { object, .. } => object,
        _ => u32::MAX,
    }
}

/// `model` without the assignments that give `main`'s `argc` and `argv` their
/// default values (1 and NULL), for a run given a command line: they are the
/// first assignments to those locals on the single path from the entry of
/// `main` (only the initializers of globals and statics come before them, and
/// those assign no local of `main`); later assignments are the program's own.
pub(super) fn without_default_arguments(model: &Model) -> Model {
    let mut model = model.clone();
    let mut pending = model.main_arguments.clone();
    let main = model.main;
    let Some(body) = model.functions[main.0 as usize].body.as_mut() else {
        return model;
    };
    let mut at = body.entry;
    let mut steps = 0;
    while !pending.is_empty() && steps <= body.graph.edge_count() {
        steps += 1;
        let mut out = body.outgoing(at).map(|(t, _, next)| (t, next));
        let (Some((t, next)), None) = (out.next(), out.next()) else {
            break;
        };
        drop(out);
        let transition = &mut body.graph[t];
        if let Statement::Assign { lhs, .. } = &transition.statement {
            if let ExprKind::Var(v) = lhs.kind {
                if let Some(k) = pending.iter().position(|&p| p == v) {
                    pending.remove(k);
                    transition.statement = Statement::Noop;
                }
            }
        }
        at = next;
    }
    model
}
