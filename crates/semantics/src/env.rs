//! The environment: the semantics' view of a state (paper Sec. 2).

use tass_dynamic::api::{ElemType, HeapObject, Message, Root, Value};
use tass_model::api::{FunctionId, LocationId, Model, TransitionId, VarId};
use tass_symbolic::api::{Expr, ExprFactory};

/// A variable of another process as a pragma names it: `PROC[rank].x`
/// (`function` `None`) or `PROC[rank]@f.x`, as (rank, function, variable).
pub type RemoteVar = (usize, Option<FunctionId>, VarId);

/// A high-level view of the state as seen by one executing process.
///
/// The evaluator reads through `&self` only (expressions are side-effect free);
/// the executor modifies through `&mut self`. How states are stored (copy-on-write,
/// interning) is the implementor's business (`tass-state`).
///
/// Variables are addressed by [`Root`]s: [`Environment::root_of`] turns a model
/// variable into the dynamic variable the executing process sees (its top frame's
/// local, its process global, or the shared variable).
pub trait Environment {
    /// The model being executed.
    fn model(&self) -> &Model;
    /// The expression factory.
    fn factory(&self) -> &ExprFactory;
    /// The rank of the executing process.
    fn process(&self) -> usize;
    /// The number of processes.
    fn nprocs(&self) -> usize;

    /// The path condition.
    fn path_condition(&self) -> Expr;
    /// Replaces the path condition (callers only ever strengthen it).
    fn set_path_condition(&mut self, pc: Expr);

    /// The dynamic variable that model variable `var` denotes for the executing
    /// process (its top frame for locals).
    fn root_of(&self, var: VarId) -> Root;
    /// The dynamic variable `PROC[rank].x` (`function` `None`) or
    /// `PROC[rank]@f.x` denotes: only the composite state of a collective
    /// assertion has one (the snapshots of every process); elsewhere the error
    /// says why not.
    fn remote_root(&self, remote: RemoteVar) -> Result<Root, String> {
        let _ = remote;
        Err("PROC[e].x outside collective assertions".into())
    }
    /// The dynamic variable `spec.x` denotes: only the composite state of a
    /// joint assertion in `tass compare` has one (the specification's
    /// snapshot); elsewhere the error says why not.
    fn spec_root(&self, name: &str) -> Result<Root, String> {
        Err(format!("spec.{name} outside joint pragmas"))
    }
    /// The value of a dynamic variable; `None` if it does not exist (a frame that
    /// was popped, a heap object that was freed or never existed).
    fn get(&self, root: Root) -> Option<&Value>;
    /// Mutable access to a dynamic variable's value (copy-on-write in the state).
    fn get_mut(&mut self, root: Root) -> Option<&mut Value>;
    /// A heap object of a process (live or freed); `None` if there is no such object.
    fn heap_object(&self, proc: usize, object: u32) -> Option<&HeapObject>;
    /// Allocates a heap object of `extent` elements of type `elem` in the executing
    /// process's heap; returns its root.
    fn allocate(&mut self, value: Value, extent: Expr, elem: ElemType) -> Root;
    /// True if heap object `object` of the executing process holds the command
    /// line (`argv` or one of its strings): the program did not allocate it.
    fn is_program_args(&self, object: u32) -> bool {
        let _ = object;
        false
    }
    /// Marks a heap object of the executing process freed.
    fn free(&mut self, object: u32);

    /// The function and location of the executing process's top frame.
    fn location(&self) -> (FunctionId, LocationId);
    /// Moves the executing process's top frame to `location`.
    fn set_location(&mut self, location: LocationId);
    /// Depth of the executing process's call stack (1 = only `main`).
    fn stack_depth(&self) -> usize;
    /// Pushes a frame for `function` at its entry location. `call_site` is the
    /// caller's transition (a [`tass_model::api::Statement::Call`]) that receives
    /// the result on return; `args` initialise the parameters, the other locals
    /// start as given by `locals`.
    fn push_frame(
        &mut self,
        function: FunctionId,
        call_site: Option<TransitionId>,
        locals: Vec<(VarId, Value)>,
    );
    /// Pops the top frame; returns the call site it was pushed with.
    fn pop_frame(&mut self) -> Option<TransitionId>;
    /// Ends the executing process (`main` returned, `exit`, `abort`).
    fn terminate(&mut self, exit_code: Option<Expr>);

    /// The buffered messages, ordered by sender, then receiver, then issue order
    /// (for the MPI engine; environments without messages have none).
    fn messages(&self) -> &[Message] {
        &[]
    }
    /// Buffers `message` after the messages of the same sender and receiver.
    fn enqueue(&mut self, message: Message) {
        let _ = message;
    }
    /// Removes and returns the buffered message at `index` of [`Environment::messages`].
    fn dequeue(&mut self, index: usize) -> Option<Message> {
        let _ = index;
        None
    }
}
