//! Printing a model as readable text (what `tass show` prints).

use std::fmt::Write;

use crate::expr::{BinaryOp, Expr, ExprKind, QuantifierKind, UnaryOp};
use crate::program::{FunctionKind, LocationKind, Model, VarId, VarScope};
use crate::stmt::{AssertOrigin, Callee, Statement};
use crate::types::Type;

/// Renders the whole model: structs, inputs (with constraints), outputs,
/// globals, then each function with its locations and guarded statements.
pub fn render_model(model: &Model) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "model {}", model.name);
    for s in &model.structs {
        if s.name.starts_with("__tass") {
            // opaque library types (FILE)
            continue;
        }
        let _ = write!(out, "{} {} {{", s.keyword(), s.name);
        for f in &s.fields {
            let _ = write!(out, " {};", render_decl(model, &f.ty, &f.name));
        }
        let _ = writeln!(out, " }}");
    }
    for &v in &model.inputs {
        let var = model.var(v);
        let _ = write!(out, "input {}", render_decl(model, &var.ty, &var.name));
        if var.from_macro {
            let _ = write!(out, " (macro)");
        }
        if let Some(c) = &var.constraint {
            let _ = write!(out, " {{{}}}", render_expr(model, c));
        }
        let _ = writeln!(out);
    }
    for &v in &model.outputs {
        let var = model.var(v);
        let _ = writeln!(out, "output {}", render_decl(model, &var.ty, &var.name));
    }
    for &v in &model.globals {
        let var = model.var(v);
        let _ = write!(out, "global {}", render_decl(model, &var.ty, &var.name));
        if let Some(f) = var.static_in {
            let _ = write!(out, " (static in {})", model.function(f).name);
        }
        let _ = writeln!(out);
    }
    for f in &model.functions {
        let params: Vec<String> = f
            .params
            .iter()
            .map(|&p| render_decl(model, &model.var(p).ty, &model.var(p).name))
            .collect();
        let kind = match &f.kind {
            FunctionKind::User => String::new(),
            FunctionKind::Abstract => "abstract ".into(),
            FunctionKind::System { guard: None } => "system ".into(),
            FunctionKind::System { guard: Some(g) } => {
                format!("system [guard {}] ", render_expr(model, g))
            }
        };
        let main = if f.id == model.main { " (main)" } else { "" };
        let _ = writeln!(
            out,
            "\n{}function {} {}({}){}",
            kind,
            render_type(model, &f.return_type),
            f.name,
            params.join(", "),
            main
        );
        let Some(body) = &f.body else { continue };
        if !f.locals.is_empty() {
            let locals: Vec<String> = f
                .locals
                .iter()
                .map(|&p| render_decl(model, &model.var(p).ty, &model.var(p).name))
                .collect();
            let _ = writeln!(out, "  locals: {}", locals.join("; "));
        }
        let _ = writeln!(out, "  entry L{}", body.entry.index());
        for loc in body.graph.node_indices() {
            let l = body.location(loc);
            let kind = match l.kind {
                LocationKind::Plain => "",
                LocationKind::LoopHead => " loop-head",
                LocationKind::ForLoopHead => " for-loop-head",
                LocationKind::IfJoin => " if-join",
                LocationKind::Exit => " exit",
                LocationKind::Label => " label",
            };
            let _ = writeln!(
                out,
                "  L{}{} (line {}):",
                loc.index(),
                kind,
                l.span.start_line
            );
            for inv in &l.invariants {
                let _ = writeln!(
                    out,
                    "    invariant {} {} {} (writes: {})",
                    inv.kind.keyword(),
                    inv.id,
                    render_expr(model, &inv.condition),
                    match &inv.refused {
                        Some(why) => format!("unknown: {}", why.message),
                        None => render_writes(model, &inv.writes),
                    }
                );
            }
            for (_, t, target) in body.outgoing_in_order(loc) {
                let guard = if t.guard.is_true() {
                    String::new()
                } else {
                    format!("[{}] ", render_expr(model, &t.guard))
                };
                let _ = writeln!(
                    out,
                    "    {}{} -> L{}    // {}",
                    guard,
                    render_statement(model, &t.statement),
                    target.index(),
                    t.source_text
                );
            }
        }
    }
    out
}

/// Renders a statement on one line.
pub fn render_statement(model: &Model, s: &Statement) -> String {
    let e = |x: &Expr| render_expr(model, x);
    match s {
        Statement::Noop => "noop".into(),
        Statement::Declare { var } => format!(
            "declare {}",
            render_decl(model, &model.var(*var).ty, &model.var(*var).name)
        ),
        Statement::Assign { lhs, rhs } => format!("{} = {}", e(lhs), e(rhs)),
        Statement::Assert { condition, origin } => match origin {
            AssertOrigin::CAssert => format!("assert({})", e(condition)),
            AssertOrigin::Pragma => format!("pragma assert {}", e(condition)),
        },
        Statement::Assume { condition } => format!("assume {}", e(condition)),
        Statement::Call { lhs, callee, args } => {
            let name = match callee {
                Callee::User(f) | Callee::System(f) => model.function(*f).name.clone(),
                Callee::Library(l) => l.c_name().to_string(),
            };
            let args: Vec<String> = args.iter().map(e).collect();
            let call = format!("call {}({})", name, args.join(", "));
            match lhs {
                Some(l) => format!("{} = {}", e(l), call),
                None => call,
            }
        }
        Statement::Return { value: Some(v) } => format!("return {}", e(v)),
        Statement::Return { value: None } => "return".into(),
        Statement::Allocate {
            lhs,
            elem_type,
            count,
            zeroed,
        } => format!(
            "{} = {}({} x {})",
            e(lhs),
            if *zeroed { "calloc" } else { "malloc" },
            e(count),
            render_type(model, elem_type)
        ),
        Statement::Reallocate {
            lhs,
            pointer,
            elem_type,
            count,
        } => format!(
            "{} = realloc({}, {} x {})",
            e(lhs),
            e(pointer),
            e(count),
            render_type(model, elem_type)
        ),
        Statement::Free { pointer } => format!("free({})", e(pointer)),
        Statement::CollectiveAssert {
            id,
            kind,
            condition,
        } => format!("{} assert {} {}", kind.keyword(), id, e(condition)),
        Statement::LoopInvariant(inv) => format!(
            "{} invariant {} {} ({})",
            inv.kind.keyword(),
            inv.id,
            e(&inv.condition),
            match inv.arrival {
                crate::stmt::LoopArrival::Entry => "entry",
                crate::stmt::LoopArrival::Return => "end of iteration",
            }
        ),
    }
}

/// Renders a type in C-like syntax (`double*`, `int[n]`, `struct S`).
pub fn render_type(model: &Model, ty: &Type) -> String {
    render_decl(model, ty, "").trim_end().to_string()
}

/// Renders a declaration `T name` with C's array suffixes (`double a[n]`).
pub fn render_decl(model: &Model, ty: &Type, name: &str) -> String {
    let mut suffix = String::new();
    let mut t = ty;
    while let Type::Array(elem, extent) = t {
        match extent {
            Some(x) => {
                let _ = write!(suffix, "[{}]", render_expr(model, x));
            }
            None => suffix.push_str("[]"),
        }
        t = elem;
    }
    let base = match t {
        Type::Void => "void".to_string(),
        Type::Bool => "_Bool".to_string(),
        Type::Char => "char".to_string(),
        Type::Int(k) => k.c_name().to_string(),
        Type::Real(k) => k.c_name().to_string(),
        Type::Pointer(inner) => format!("{}*", render_type(model, inner)),
        Type::Struct(id) => match model.structs.get(id.0 as usize) {
            Some(s) => format!("{} {}", s.keyword(), s.name),
            None => "struct ?".to_string(),
        },
        Type::Mpi(h) => h.c_name().to_string(),
        Type::Unknown => "?".to_string(),
        Type::Array(..) => unreachable!("arrays are peeled above"),
    };
    if name.is_empty() {
        format!("{base}{suffix}")
    } else {
        format!("{base} {name}{suffix}")
    }
}

fn var_name(model: &Model, v: VarId) -> String {
    match model.variables.get(v.0 as usize) {
        Some(var) => var.name.clone(),
        None => format!("?v{}", v.0),
    }
}

fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Quantifier { .. } => 0,
        ExprKind::Conditional(..) => 1,
        ExprKind::LogicalOr(..) => 2,
        ExprKind::LogicalAnd(..) => 3,
        ExprKind::Binary(op, ..) => match op {
            BinaryOp::BitOr => 4,
            BinaryOp::BitXor => 5,
            BinaryOp::BitAnd => 6,
            BinaryOp::Compare(c) if c.is_equality() => 7,
            BinaryOp::Compare(_) => 8,
            BinaryOp::Shl | BinaryOp::Shr => 9,
            BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::PointerAdd
            | BinaryOp::PointerSub
            | BinaryOp::PointerDiff => 10,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 11,
        },
        ExprKind::Unary(..)
        | ExprKind::AddressOf(..)
        | ExprKind::Deref(..)
        | ExprKind::Cast(..) => 12,
        _ => 13,
    }
}

fn sub(model: &Model, e: &Expr, min: u8) -> String {
    let s = render_expr(model, e);
    if precedence(e) < min {
        format!("({s})")
    } else {
        s
    }
}

/// Renders an expression in C-like syntax with the pragma extensions.
pub fn render_expr(model: &Model, e: &Expr) -> String {
    let p = precedence(e);
    match &e.kind {
        ExprKind::IntLit(v) => v.to_string(),
        ExprKind::RealLit(s) => s.clone(),
        ExprKind::CharLit(c) => match *c {
            b'\n' => "'\\n'".into(),
            b'\'' => "'\\''".into(),
            b'\\' => "'\\\\'".into(),
            0x20..=0x7e => format!("'{}'", *c as char),
            _ => format!("'\\x{c:02x}'"),
        },
        ExprKind::BoolLit(b) => b.to_string(),
        ExprKind::StringLit(bytes) => format!("{:?}", String::from_utf8_lossy(bytes)),
        ExprKind::NullPointer => "NULL".into(),
        ExprKind::Zero => "{0}".into(),
        ExprKind::Var(v) => var_name(model, *v),
        ExprKind::Unary(op, a) => {
            let o = match op {
                UnaryOp::Neg => "-",
                UnaryOp::Not => "!",
                UnaryOp::BitNot => "~",
            };
            format!("{}{}", o, sub(model, a, p))
        }
        ExprKind::Binary(op, a, b) => format!(
            "{} {} {}",
            sub(model, a, p),
            op.symbol(),
            sub(model, b, p + 1)
        ),
        ExprKind::LogicalAnd(a, b) => format!("{} && {}", sub(model, a, p), sub(model, b, p + 1)),
        ExprKind::LogicalOr(a, b) => format!("{} || {}", sub(model, a, p), sub(model, b, p + 1)),
        ExprKind::Conditional(c, a, b) => format!(
            "{} ? {} : {}",
            sub(model, c, p + 1),
            sub(model, a, p + 1),
            sub(model, b, p)
        ),
        ExprKind::AddressOf(a) => format!("&{}", sub(model, a, p)),
        ExprKind::Deref(a) => format!("*{}", sub(model, a, p)),
        ExprKind::Index(a, i) => format!("{}[{}]", sub(model, a, 13), render_expr(model, i)),
        ExprKind::Field(a, i) => {
            let name = match &a.ty {
                Type::Struct(s) => model
                    .structs
                    .get(s.0 as usize)
                    .and_then(|d| d.fields.get(*i))
                    .map(|f| f.name.clone())
                    .unwrap_or_else(|| format!("#{i}")),
                _ => format!("#{i}"),
            };
            format!("{}.{}", sub(model, a, 13), name)
        }
        ExprKind::Decay(a) => render_expr(model, a),
        ExprKind::Cast(a) => format!("({}){}", render_type(model, &e.ty), sub(model, a, p)),
        ExprKind::SizeOf(t) => format!("sizeof({})", render_type(model, t)),
        ExprKind::MathCall(f, args) => {
            let args: Vec<String> = args.iter().map(|a| render_expr(model, a)).collect();
            format!("{}({})", f.c_name(), args.join(", "))
        }
        ExprKind::AbstractCall(f, args) => {
            let args: Vec<String> = args.iter().map(|a| render_expr(model, a)).collect();
            let name = model
                .functions
                .get(f.0 as usize)
                .map(|f| f.name.as_str())
                .unwrap_or("?");
            format!("{}({})", name, args.join(", "))
        }
        ExprKind::LibraryConstant(c) => c.c_name().into(),
        ExprKind::Quantifier {
            kind,
            var,
            constraint,
            body,
        } => {
            let k = match kind {
                QuantifierKind::Forall => "forall",
                QuantifierKind::Exists => "exists",
            };
            let ty = model
                .variables
                .get(var.0 as usize)
                .map(|v| render_type(model, &v.ty))
                .unwrap_or_default();
            let c = match constraint {
                Some(c) => format!(" | {}", render_expr(model, c)),
                None => String::new(),
            };
            format!(
                "{} {{{} {}{}}} {}",
                k,
                ty,
                var_name(model, *var),
                c,
                sub(model, body, 1)
            )
        }
        ExprKind::RemoteVar {
            rank,
            function,
            var,
        } => match function {
            Some(f) => format!(
                "PROC[{}]@{}.{}",
                render_expr(model, rank),
                model
                    .functions
                    .get(f.0 as usize)
                    .map(|f| f.name.as_str())
                    .unwrap_or("?"),
                var_name(model, *var)
            ),
            None => format!(
                "PROC[{}].{}",
                render_expr(model, rank),
                var_name(model, *var)
            ),
        },
        ExprKind::SpecVar(name) => format!("spec.{name}"),
        ExprKind::Pid => "PID".into(),
        ExprKind::NProcs => "NPROCS".into(),
    }
}

/// A short description of a variable's scope (`input`, `output`, `global`,
/// `local`, `bound`).
pub fn scope_name(scope: VarScope) -> &'static str {
    match scope {
        VarScope::Input => "input",
        VarScope::Output => "output",
        VarScope::ProcessGlobal => "global",
        VarScope::Local(_) => "local",
        VarScope::Bound => "bound",
    }
}

/// A loop's write set, e.g. `i, s, *a`.
fn render_writes(model: &Model, writes: &[crate::loop_writes::WriteTarget]) -> String {
    use crate::loop_writes::WriteTarget;
    if writes.is_empty() {
        return "nothing".into();
    }
    writes
        .iter()
        .map(|w| match w {
            WriteTarget::Var(v) => model.var(*v).name.clone(),
            WriteTarget::PointeeOf(p) => format!("*{}", model.var(*p).name),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
