//! Function calls: user functions, abstract and system functions, and the
//! built-in library functions.

use tass_model::api::*;

use super::expr::peel_casts;
use super::{bx, err, Res, Sym, Tr};
use crate::ast::{Ast, AstKind, Pos};

/// The header that declares a library function (for hints).
fn header_of(name: &str) -> &'static str {
    match LibraryFunction::from_c_name(name) {
        Some(f) if f.is_mpi() => "<mpi.h>",
        Some(LibraryFunction::Assert) => "<assert.h>",
        Some(
            LibraryFunction::Printf
            | LibraryFunction::Fprintf
            | LibraryFunction::Puts
            | LibraryFunction::Putchar
            | LibraryFunction::Sprintf
            | LibraryFunction::Fflush,
        ) => "<stdio.h>",
        Some(
            LibraryFunction::Memcpy
            | LibraryFunction::Memmove
            | LibraryFunction::Memset
            | LibraryFunction::Memcmp
            | LibraryFunction::Strlen
            | LibraryFunction::Strcmp
            | LibraryFunction::Strncmp
            | LibraryFunction::Strcpy
            | LibraryFunction::Strncpy,
        ) => "<string.h>",
        Some(LibraryFunction::Time | LibraryFunction::Clock | LibraryFunction::Difftime) => {
            "<time.h>"
        }
        Some(LibraryFunction::Sleep | LibraryFunction::Usleep | LibraryFunction::Getpid) => {
            "<unistd.h>"
        }
        Some(LibraryFunction::Delta) => "<tass.h>",
        Some(f)
            if f.is_pure_math() && !matches!(f, LibraryFunction::Abs | LibraryFunction::Labs) =>
        {
            "<math.h>"
        }
        Some(_) => "<stdlib.h>",
        None => "",
    }
}

/// The header of a common C library function tass has no model of.
fn unmodelled_library_header(name: &str) -> Option<&'static str> {
    Some(match name {
        "strcat" | "strncat" | "strchr" | "strrchr" | "strstr" | "strdup" | "strndup"
        | "strtok" | "strspn" | "strcspn" | "strpbrk" | "memchr" | "strerror" => "<string.h>",
        "qsort" | "bsearch" | "atof" | "strtod" | "strtof" | "strtoul" | "strtoll" | "strtoull"
        | "getenv" | "system" | "atexit" | "div" | "ldiv" | "llabs" => "<stdlib.h>",
        "scanf" | "fscanf" | "sscanf" | "fopen" | "fclose" | "fgets" | "fputs" | "fread"
        | "fwrite" | "getchar" | "fgetc" | "fputc" | "snprintf" | "vprintf" | "perror"
        | "remove" | "rename" => "<stdio.h>",
        "gettimeofday" | "clock_gettime" | "localtime" | "gmtime" | "strftime" | "mktime"
        | "ctime" | "asctime" | "nanosleep" => "<time.h> / <sys/time.h>",
        "read" | "write" | "close" | "getppid" | "gethostname" | "sysconf" | "getopt" => {
            "<unistd.h>"
        }
        _ => return None,
    })
}

/// What becomes of the result of a call.
#[derive(Clone, Debug)]
pub(crate) enum CallResult {
    /// Stored into this lvalue (`x = f(...)`).
    StoreIn(Expr),
    /// Used as a value (`f(...) + 1`): returned, in a temporary unless pure.
    Value,
    /// Thrown away (`f(...);`).
    Discard,
}

impl<'t> Tr<'t> {
    /// Translates a call; returns the lvalue stored into or the value, as
    /// `result` asks.
    pub(crate) fn call(
        &mut self,
        f: &Ast<'t>,
        args: &[Ast<'t>],
        result: CallResult,
        pos: Pos,
    ) -> Res<Option<Expr>> {
        if let Some((sig, pointer)) = self.fn_pointer_callee(f) {
            return self.call_through_pointer(pointer, sig, args, result, pos);
        }
        let AstKind::Ident(name) = &f.kind else {
            return err(
                pos,
                "calls through function pointers are supported only through a variable, a parameter or an array element (`op(x)`, `(*op)(x)`, `ops[i](x)`), not this expression",
            );
        };
        let i = match self.lookup(name) {
            Some(Sym::Func(i)) => i,
            Some(Sym::Var(_)) => {
                return err(
                    f.pos,
                    format!(
                    "`{name}` is a variable, not a function (function pointers are not supported)"
                ),
                )
            }
            Some(_) => return err(f.pos, format!("`{name}` is not a function")),
            None => {
                let h = header_of(name);
                let hint = if name.starts_with("MPI_") && self.ctx.uses_mpi {
                    " (tass's <mpi.h> does not provide it)".to_string()
                } else if h.is_empty() {
                    String::new()
                } else {
                    format!(" (did you forget `#include {h}`?)")
                };
                let unsupported = matches!(
                    name.as_str(),
                    "setjmp" | "longjmp" | "pthread_create" | "pthread_join" | "fork" | "signal"
                );
                if unsupported {
                    return err(f.pos, format!("`{name}` is not supported"));
                }
                if let Some(header) = unmodelled_library_header(name) {
                    return err(
                        f.pos,
                        format!("`{name}` ({header}) is not supported by tass: its library model covers only the functions listed in the guide; rewrite the call or leave it out of the verified model"),
                    );
                }
                return err(f.pos, format!("unknown function `{name}`{hint}"));
            }
        };
        if self.ctx.fns[i].first_call.is_none() {
            let sp = self.span(pos);
            self.ctx.fns[i].first_call = Some(sp);
        }
        if let Some(lib) = self.ctx.fns[i].library() {
            return self.library_call(lib, i, args, result, pos);
        }
        let info = &self.ctx.fns[i];
        let kind = info.kind.clone();
        let ret = info.return_type.clone();
        let params = info.param_types.clone();
        let variadic = info.variadic;
        let model_id = info.model_id;
        let fname = info.name.clone();
        if args.len() < params.len() || (args.len() > params.len() && !variadic) {
            // `f()` declares no prototype in C; accept when the definition has none
            if !(params.is_empty() && !info.has_body && args.is_empty()) {
                return err(
                    pos,
                    format!(
                        "`{fname}` expects {} argument(s), {} given",
                        params.len(),
                        args.len()
                    ),
                );
            }
        }
        let mut xs = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let e = self.rvalue(a)?;
            let e = match params.get(k) {
                Some(t) => self.convert(e, t, a.pos)?,
                None => e,
            };
            xs.push(e);
        }
        match kind {
            FunctionKind::Abstract => {
                let Some(id) = model_id else {
                    return err(pos, "internal: abstract function without id");
                };
                let span = self.span(pos);
                let e = Expr::new(ExprKind::AbstractCall(id, xs), ret, span);
                self.deliver(e, result, pos)
            }
            FunctionKind::System { .. } | FunctionKind::User => {
                self.effect_check_call(pos, &fname)?;
                let Some(id) = model_id else {
                    return err(
                        pos,
                        format!("function `{fname}` is declared but never defined (tass needs its body)"),
                    );
                };
                let callee = if matches!(kind, FunctionKind::User) {
                    Callee::User(id)
                } else {
                    Callee::System(id)
                };
                self.emit_call(callee, xs, ret, result, pos)
            }
        }
    }

    pub(crate) fn effect_check_call(&self, pos: Pos, name: &str) -> Res<()> {
        if let Some(ctx) = self.pure_context {
            return err(pos, format!("a call of `{name}` is not allowed in {ctx}"));
        }
        if self.in_pragma {
            return err(pos, format!("a call of `{name}` is not allowed in a pragma (only abstract and math functions are)"));
        }
        if self.fb.is_none() {
            return err(pos, format!("a call of `{name}` is not allowed here"));
        }
        Ok(())
    }

    /// Stores or returns a pure value.
    fn deliver(&mut self, e: Expr, result: CallResult, pos: Pos) -> Res<Option<Expr>> {
        match result {
            CallResult::StoreIn(l) => {
                let v = self.convert(e, &l.ty, pos)?;
                self.emit(Statement::Assign {
                    lhs: l.clone(),
                    rhs: v,
                });
                Ok(Some(l))
            }
            CallResult::Value => Ok(Some(e)),
            CallResult::Discard => Ok(None),
        }
    }

    fn emit_call(
        &mut self,
        callee: Callee,
        args: Vec<Expr>,
        ret: Type,
        result: CallResult,
        pos: Pos,
    ) -> Res<Option<Expr>> {
        match result {
            CallResult::StoreIn(l) => {
                if ret == Type::Void {
                    return err(
                        pos,
                        "the function returns void: its result cannot be assigned",
                    );
                }
                if l.ty == ret {
                    self.emit(Statement::Call {
                        lhs: Some(l.clone()),
                        callee,
                        args,
                    });
                } else {
                    let t = self.temp(ret, pos);
                    self.emit(Statement::Call {
                        lhs: Some(t.clone()),
                        callee,
                        args,
                    });
                    let v = self.convert(t, &l.ty, pos)?;
                    self.emit(Statement::Assign {
                        lhs: l.clone(),
                        rhs: v,
                    });
                }
                Ok(Some(l))
            }
            CallResult::Value => {
                if ret == Type::Void {
                    return err(pos, "a function returning void used as a value");
                }
                let t = self.temp(ret, pos);
                self.emit(Statement::Call {
                    lhs: Some(t.clone()),
                    callee,
                    args,
                });
                Ok(Some(t))
            }
            CallResult::Discard => {
                self.emit(Statement::Call {
                    lhs: None,
                    callee,
                    args,
                });
                Ok(None)
            }
        }
    }

    fn is_sizeof_of(&mut self, a: &Ast<'t>, elem: &Type) -> bool {
        match &a.kind {
            AstKind::SizeofType(tn) => self.type_name_type(tn, a.pos).ok().as_ref() == Some(elem),
            AstKind::SizeofExpr(x) => {
                let saved = self.pure_context.replace("sizeof");
                let t = self.expr(x).ok().map(|e| e.ty);
                self.pure_context = saved;
                t.as_ref() == Some(elem)
            }
            _ => false,
        }
    }

    fn count_expr(&mut self, a: &Ast<'t>) -> Res<Expr> {
        let e = self.rvalue(a)?;
        if !e.ty.is_integer() {
            return err(a.pos, "a size must be an integer");
        }
        Ok(self.to_int(e))
    }

    /// The element count of `malloc(size)` for elements of type `elem`.
    fn alloc_count(&mut self, size: &Ast<'t>, elem: &Type) -> Res<Expr> {
        let size = peel_casts(size);
        if let AstKind::Binary(op, a, b) = &size.kind {
            if op == "*" {
                if self.is_sizeof_of(b, elem) {
                    return self.count_expr(a);
                }
                if self.is_sizeof_of(a, elem) {
                    return self.count_expr(b);
                }
            }
        }
        let span = self.span(size.pos);
        if *elem == Type::Char {
            // sizeof(char) is 1
            return self.count_expr(size);
        }
        if self.is_sizeof_of(size, elem) {
            return Ok(Expr::int(1, span));
        }
        let s = self.count_expr(size)?;
        Ok(Expr::new(
            ExprKind::Binary(
                BinaryOp::Div,
                bx(s),
                bx(Expr::new(
                    ExprKind::SizeOf(elem.clone()),
                    Type::Int(IntKind::UnsignedLong),
                    span.clone(),
                )),
            ),
            Type::Int(IntKind::UnsignedLong),
            span,
        ))
    }

    fn library_call(
        &mut self,
        lib: LibraryFunction,
        i: usize,
        args: &[Ast<'t>],
        result: CallResult,
        pos: Pos,
    ) -> Res<Option<Expr>> {
        let name = lib.c_name();
        let info = &self.ctx.fns[i];
        let params = info.param_types.clone();
        let variadic = info.variadic;
        let ret = info.return_type.clone();
        if args.len() < params.len() || (args.len() > params.len() && !variadic) {
            return err(
                pos,
                format!(
                    "`{name}` expects {} argument(s), {} given",
                    params.len(),
                    args.len()
                ),
            );
        }
        if !lib.is_pure_math() {
            self.effect_check_call(pos, name)?;
        }
        use LibraryFunction as L;
        match lib {
            L::Malloc | L::Calloc | L::Realloc => self.allocation(lib, args, result, pos),
            L::Free => {
                let p = self.rvalue(&args[0])?;
                if !matches!(p.ty, Type::Pointer(_)) {
                    return err(args[0].pos, "`free` needs a pointer");
                }
                self.emit(Statement::Free { pointer: p });
                Ok(None)
            }
            L::Assert => {
                let c = self.cond(&args[0])?;
                self.emit(Statement::Assert {
                    condition: c,
                    origin: AssertOrigin::CAssert,
                });
                if !matches!(result, CallResult::Discard) {
                    return err(pos, "`assert` has no value");
                }
                Ok(None)
            }
            _ => {
                let xs = self.library_arguments(name, &params, args)?;
                if lib.is_pure_math() {
                    let span = self.span(pos);
                    let e = Expr::new(ExprKind::MathCall(lib, xs), ret, span);
                    return self.deliver(e, result, pos);
                }
                self.emit_call(Callee::Library(lib), xs, ret, result, pos)
            }
        }
    }

    /// `p = malloc(n)`, `calloc(n, size)`, `realloc(q, n)`: an allocation of
    /// elements of the type `p` points to.
    fn allocation(
        &mut self,
        lib: LibraryFunction,
        args: &[Ast<'t>],
        result: CallResult,
        pos: Pos,
    ) -> Res<Option<Expr>> {
        use LibraryFunction as L;
        let name = lib.c_name();
        let CallResult::StoreIn(l) = result else {
            return err(
                pos,
                format!("the result of `{name}` must be assigned directly to a pointer (e.g. `p = {name}(...)`)"),
            );
        };
        let elem = match &l.ty {
            Type::Pointer(e) if **e != Type::Void => (**e).clone(),
            Type::Pointer(_) => {
                return err(
                    pos,
                    format!(
                        "the result of `{name}` must be assigned to a typed pointer, not `void *`"
                    ),
                )
            }
            other => {
                return err(
                    pos,
                    format!(
                        "the result of `{name}` is assigned to a `{}`, not a pointer",
                        self.type_name(other)
                    ),
                )
            }
        };
        match lib {
            L::Malloc => {
                let count = self.alloc_count(&args[0], &elem)?;
                self.emit(Statement::Allocate {
                    lhs: l.clone(),
                    elem_type: elem,
                    count,
                    zeroed: false,
                });
            }
            L::Calloc => {
                let n = self.count_expr(&args[0])?;
                let count = if self.is_sizeof_of(&args[1], &elem) {
                    n
                } else {
                    let size = self.count_expr(&args[1])?;
                    let total = self.binary("*", n, size, pos)?;
                    let span = self.span(pos);
                    let so = Expr::new(
                        ExprKind::SizeOf(elem.clone()),
                        Type::Int(IntKind::UnsignedLong),
                        span,
                    );
                    self.binary("/", total, so, pos)?
                };
                self.emit(Statement::Allocate {
                    lhs: l.clone(),
                    elem_type: elem,
                    count,
                    zeroed: true,
                });
            }
            _ => {
                let p = self.rvalue(&args[0])?;
                let p = self.convert(p, &l.ty, args[0].pos)?;
                let count = self.alloc_count(&args[1], &elem)?;
                self.emit(Statement::Reallocate {
                    lhs: l.clone(),
                    pointer: p,
                    elem_type: elem,
                    count,
                });
            }
        }
        Ok(Some(l))
    }

    /// The arguments of a call of library function `name`, converted to the
    /// parameter types (`void *` buffers keep their own pointer type: the
    /// engine needs the element type).
    fn library_arguments(
        &mut self,
        name: &str,
        params: &[Type],
        args: &[Ast<'t>],
    ) -> Res<Vec<Expr>> {
        let mut xs = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let e = self.rvalue(a)?;
            let e = match params.get(k) {
                // buffers keep their own pointer type: the engine
                // needs the element type
                Some(Type::Pointer(t)) if **t == Type::Void && matches!(e.ty, Type::Pointer(_)) => {
                    e
                }
                Some(t) => self.convert(e, t, a.pos)?,
                None => {
                    if !(e.ty.is_scalar() || matches!(e.ty, Type::Pointer(_))) {
                        return err(
                            a.pos,
                            format!(
                                "argument of type `{}` cannot be passed to `{name}`",
                                self.type_name(&e.ty)
                            ),
                        );
                    }
                    e
                }
            };
            xs.push(e);
        }
        Ok(xs)
    }
}
