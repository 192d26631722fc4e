//! Types, declarators, typedefs, structs, enums, global declarations and
//! function signatures.

use tass_model::api::*;
use tree_sitter::Node;

use super::builder::FnBuilder;
use super::{err, FnInfo, Pragma, Res, Sym, Tr};
use crate::ast::{convert, Pos};
use crate::pragma::PragmaKind;

/// Storage class and qualifiers of a declaration.
#[derive(Default, Clone, Copy)]
pub(crate) struct Flags {
    pub is_static: bool,
    pub is_extern: bool,
    pub is_const: bool,
}

/// A parameter: name (if any), type, position.
pub(crate) type Param = (Option<String>, Type, Pos);

/// The declarator of a declaration's `declarator` child and its initializer
/// (`x = 1`), if any.
pub(crate) fn declarator_and_value(dn: Node<'_>) -> (Option<Node<'_>>, Option<Node<'_>>) {
    if dn.kind() == "init_declarator" {
        (
            crate::ast::child(dn, "declarator"),
            crate::ast::child(dn, "value"),
        )
    } else {
        (Some(dn), None)
    }
}

/// Whether a function declaration comes with its body.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeclarationForm {
    /// `T f(...) { ... }`
    Definition,
    /// `T f(...);`
    Prototype,
}

/// What a declarator declares.
pub(crate) struct Declared<'t> {
    pub name: String,
    pub ty: Type,
    pub pos: Pos,
    /// For function declarators: the parameters and whether `...` follows.
    pub params: Option<(Vec<Param>, bool)>,
    /// The parameter_list node (to re-resolve parameter types in pass 2).
    pub param_node: Option<Node<'t>>,
}

fn int(kind: IntKind) -> Type {
    Type::Int(kind)
}

impl<'t> Tr<'t> {
    /// The type named by pragma type words (`int`, `unsigned long`, `double`,
    /// or a typedef name).
    pub(crate) fn type_from_words(&mut self, words: &[String], pos: Pos) -> Res<Type> {
        if words.len() == 1 {
            if let Some(Sym::Typedef(t)) = self.lookup(&words[0]) {
                return Ok(t);
            }
        }
        let w: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
        self.type_from_keywords(&w, pos)
    }

    fn type_from_keywords(&mut self, w: &[&str], pos: Pos) -> Res<Type> {
        let longs = w.iter().filter(|x| **x == "long").count();
        let unsigned = w.contains(&"unsigned");
        let has = |k: &str| w.contains(&k);
        let ty = if has("double") {
            Type::Real(if longs > 0 {
                RealKind::LongDouble
            } else {
                RealKind::Double
            })
        } else if has("float") {
            Type::Real(RealKind::Float)
        } else if has("char") && unsigned {
            int(IntKind::UnsignedChar)
        } else if has("char") {
            Type::Char
        } else if has("_Bool") || has("bool") {
            Type::Bool
        } else if has("void") {
            Type::Void
        } else if has("short") {
            int(if unsigned {
                IntKind::UnsignedShort
            } else {
                IntKind::Short
            })
        } else if longs >= 2 {
            int(if unsigned {
                IntKind::UnsignedLongLong
            } else {
                IntKind::LongLong
            })
        } else if longs == 1 {
            int(if unsigned {
                IntKind::UnsignedLong
            } else {
                IntKind::Long
            })
        } else if has("int") || has("signed") || unsigned {
            int(if unsigned {
                IntKind::Unsigned
            } else {
                IntKind::Int
            })
        } else {
            return err(pos, format!("unknown type `{}`", w.join(" ")));
        };
        Ok(ty)
    }

    /// The type of a type-specifier node.
    pub(crate) fn base_type_node(&mut self, node: Node<'t>) -> Res<Type> {
        let pos = Pos::of(node);
        match node.kind() {
            "primitive_type" => {
                let t = self.text(node);
                Ok(match t {
                    "size_t" | "uintptr_t" | "uint64_t" => int(IntKind::UnsignedLong),
                    "ssize_t" | "ptrdiff_t" | "intptr_t" | "int64_t" => int(IntKind::Long),
                    // int8_t is `signed char`, which tass's `char` covers
                    "int8_t" => Type::Char,
                    "int16_t" => int(IntKind::Short),
                    "int32_t" => int(IntKind::Int),
                    "uint8_t" => int(IntKind::UnsignedChar),
                    "uint16_t" => int(IntKind::UnsignedShort),
                    "uint32_t" => int(IntKind::Unsigned),
                    "char" => Type::Char,
                    other => self.type_from_keywords(&[other], pos)?,
                })
            }
            "sized_type_specifier" => {
                let mut words: Vec<&str> = self.text(node).split_whitespace().collect();
                if let Some(t) = crate::ast::child(node, "type") {
                    if t.kind() == "type_identifier" {
                        return err(pos, format!("unknown type `{}`", self.text(node)));
                    }
                    words.push(self.text(t));
                }
                let words: Vec<&str> = words
                    .into_iter()
                    .filter(|w| !matches!(*w, "const" | "volatile"))
                    .collect();
                self.type_from_keywords(&words, pos)
            }
            "type_identifier" => {
                let name = self.text(node);
                match name {
                    "__tass_MPI_Comm" => return Ok(Type::Mpi(MpiHandleType::Comm)),
                    "__tass_MPI_Request" => return Ok(Type::Mpi(MpiHandleType::Request)),
                    "__tass_MPI_Datatype" => return Ok(Type::Mpi(MpiHandleType::Datatype)),
                    "__tass_MPI_Op" => return Ok(Type::Mpi(MpiHandleType::Op)),
                    "__tass_MPI_Group" => return Ok(Type::Mpi(MpiHandleType::Group)),
                    "__tass_MPI_Win" => return Ok(Type::Mpi(MpiHandleType::Win)),
                    "_Bool" | "bool" => return Ok(Type::Bool),
                    _ => {}
                }
                match self.lookup(name) {
                    Some(Sym::Typedef(t)) => {
                        self.ctx.typedef_fn_pointer =
                            self.ctx.fn_pointer_typedefs.get(name).cloned();
                        Ok(t)
                    }
                    _ => {
                        let hint = if name == "MPI_User_function" {
                            " (a function type, which tass does not model: pass the function \
                             itself, as in `MPI_Op_create(my_op, 1, &op)`)"
                        } else if name.starts_with("MPI_") {
                            " (did you forget `#include <mpi.h>`?)"
                        } else if name == "FILE" {
                            " (did you forget `#include <stdio.h>`?)"
                        } else {
                            ""
                        };
                        err(pos, format!("unknown type name `{name}`{hint}"))
                    }
                }
            }
            "struct_specifier" => self.struct_type(node),
            "union_specifier" => self.struct_type(node),
            "enum_specifier" => self.enum_type(node),
            "macro_type_specifier" => err(pos, "a macro used as a type is not supported"),
            other => err(
                pos,
                format!("type `{}` ({other}) is not supported", self.text(node)),
            ),
        }
    }

    /// Storage class, qualifiers and base type of a declaration-like node.
    pub(crate) fn specifiers(&mut self, node: Node<'t>) -> Res<(Type, Flags)> {
        self.ctx.typedef_fn_pointer = None;
        let mut flags = Flags::default();
        let mut c = node.walk();
        for ch in node.children(&mut c) {
            match ch.kind() {
                "storage_class_specifier" => match self.text(ch) {
                    "static" => flags.is_static = true,
                    "extern" => flags.is_extern = true,
                    "register" | "auto" | "inline" | "__inline" | "__inline__" => {}
                    "_Thread_local" | "thread_local" | "__thread" => {
                        return err(
                            Pos::of(ch),
                            "thread-local storage (threads) is not supported",
                        )
                    }
                    other => return err(Pos::of(ch), format!("`{other}` is not supported")),
                },
                "type_qualifier" => match self.text(ch) {
                    "const" => flags.is_const = true,
                    "_Atomic" => return err(Pos::of(ch), "_Atomic (threads) is not supported"),
                    // A layout tass would not follow: sizes, offsets and
                    // addresses would differ from the compiled program's.
                    q if q.starts_with("_Alignas") || q.starts_with("alignas") => {
                        return err(
                            Pos::of(ch),
                            "`_Alignas` is not supported (tass lays objects out at their \
                             type's own alignment); remove it",
                        )
                    }
                    _ => {}
                },
                "attribute_specifier" | "attribute_declaration" | "ms_declspec_modifier" => {
                    return err(Pos::of(ch), "attributes are not supported")
                }
                _ => {}
            }
        }
        let tnode = node
            .child_by_field_name("type")
            .ok_or_else(|| crate::ast::AstError {
                pos: Pos::of(node),
                message: "declaration without a type".into(),
            })?;
        let ty = self.base_type_node(tnode)?;
        Ok((ty, flags))
    }

    /// Translates an array extent (side-effect free).
    fn extent(&mut self, size: Option<Node<'t>>, lenient: bool) -> Res<Option<Box<Expr>>> {
        let Some(size) = size else { return Ok(None) };
        if self.text(size) == "*" {
            return Ok(None);
        }
        let ast = convert(size, self.src)?;
        let saved = self.pure_context.replace("an array size");
        let r = self.rvalue(&ast);
        self.pure_context = saved;
        match r {
            Ok(e) if e.ty.is_integer() => {
                let mut e = self.to_int(e);
                strip_spans(&mut e);
                Ok(Some(Box::new(e)))
            }
            Ok(_) => err(Pos::of(size), "an array size must be an integer"),
            Err(_) if lenient => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Resolves a (possibly abstract) declarator applied to `base`.
    pub(crate) fn declarator(
        &mut self,
        node: Option<Node<'t>>,
        base: Type,
        lenient: bool,
    ) -> Res<Declared<'t>> {
        let Some(node) = node else {
            return Ok(Declared {
                name: String::new(),
                ty: base,
                pos: Pos::default(),
                params: None,
                param_node: None,
            });
        };
        let pos = Pos::of(node);
        let _depth = crate::ast::NestingGuard::enter(pos)?;
        match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "primitive_type" => {
                Ok(Declared {
                    name: self.text(node).to_string(),
                    ty: base,
                    pos,
                    params: None,
                    param_node: None,
                })
            }
            "pointer_declarator" | "abstract_pointer_declarator" => self.declarator(
                crate::ast::child(node, "declarator"),
                Type::Pointer(Box::new(base)),
                lenient,
            ),
            "array_declarator" | "abstract_array_declarator" => {
                let ext = self.extent(crate::ast::child(node, "size"), lenient)?;
                self.declarator(
                    crate::ast::child(node, "declarator"),
                    Type::Array(Box::new(base), ext),
                    lenient,
                )
            }
            "parenthesized_declarator" | "abstract_parenthesized_declarator" => {
                let inner = node.named_child(0);
                if let Some(i) = inner {
                    if i.kind().contains("pointer_declarator") {
                        // (*p)[N] is a pointer to array: fine; (*f)(...) is not
                        let parent_is_fn = node
                            .parent()
                            .map(|p| p.kind().contains("function_declarator"))
                            .unwrap_or(false);
                        if parent_is_fn {
                            return err(pos, "function pointers are not supported");
                        }
                    }
                }
                self.declarator(inner, base, lenient)
            }
            "function_declarator" | "abstract_function_declarator" => {
                let inner = crate::ast::child(node, "declarator");
                if let Some(pointer) = inner.and_then(fn_pointer_declarator) {
                    return self.fn_pointer_declarator(node, pointer, base, lenient);
                }
                match inner {
                    Some(i) if i.kind() == "identifier" => {}
                    _ => return err(pos, "function pointers are not supported"),
                }
                let plist = crate::ast::child(node, "parameters");
                let params = match plist {
                    Some(pl) => self.parameters(pl, lenient)?,
                    None => (vec![], false),
                };
                let mut d = self.declarator(inner, base, lenient)?;
                d.params = Some(params);
                d.param_node = plist;
                Ok(d)
            }
            "init_declarator" => err(pos, "unexpected initializer"),
            "attributed_declarator" => err(pos, "attributes are not supported"),
            "gnu_asm_expression" => err(pos, "inline assembly is not supported"),
            other => err(
                pos,
                format!(
                    "declarator `{}` ({other}) is not supported",
                    self.text(node)
                ),
            ),
        }
    }

    /// `R (*name)(P...)` (also `R (*name[N])(P...)`): `name` holds function
    /// pointers, integers naming functions ([`super::FnPointerSig`]).
    fn fn_pointer_declarator(
        &mut self,
        node: Node<'t>,
        pointer: Node<'t>,
        ret: Type,
        lenient: bool,
    ) -> Res<Declared<'t>> {
        let target = crate::ast::child(pointer, "declarator");
        if target.is_some_and(|t| t.kind().contains("function_declarator")) {
            return err(
                Pos::of(pointer),
                "a function returning a function pointer must name its return type with a typedef (`typedef int (*op_t)(int); op_t pick(int k)`)",
            );
        }
        if target.is_some_and(|t| t.kind().contains("pointer_declarator")) {
            return err(
                Pos::of(pointer),
                "pointers to function pointers are not supported",
            );
        }
        let (params, variadic) = match crate::ast::child(node, "parameters") {
            Some(pl) => self.parameters(pl, lenient)?,
            None => (vec![], false),
        };
        if variadic {
            return err(
                Pos::of(node),
                "pointers to variadic functions are not supported",
            );
        }
        let sig = super::FnPointerSig {
            ret,
            params: params.into_iter().map(|p| p.1).collect(),
        };
        let d = self.declarator(target, super::FN_POINTER_TYPE, lenient)?;
        if !d.name.is_empty() {
            self.ctx
                .fn_pointer_decls
                .insert((d.pos.row, d.pos.col), sig);
        }
        Ok(d)
    }

    /// Records that variable `v`, whose name is at `pos`, holds function
    /// pointers if its declarator said so.
    pub(crate) fn note_fn_pointer(&mut self, v: VarId, pos: Pos) {
        let ty = self.ctx.var(v).ty.clone();
        let sig = self
            .ctx
            .fn_pointer_decls
            .remove(&(pos.row, pos.col))
            .or_else(|| self.typedef_sig_for(&ty));
        if let Some(sig) = sig {
            self.ctx.fn_pointers.insert(v, sig);
        }
    }

    /// The signature a declaration of type `ty` gets from the function-pointer
    /// typedef it starts with (`unary f;`, `unary table[4];`).
    fn typedef_sig_for(&self, ty: &Type) -> Option<super::FnPointerSig> {
        let holds_fn_pointers = match ty {
            Type::Array(elem, _) | Type::Pointer(elem) => **elem == super::FN_POINTER_TYPE,
            t => *t == super::FN_POINTER_TYPE,
        };
        self.ctx
            .typedef_fn_pointer
            .clone()
            .filter(|_| holds_fn_pointers)
    }

    /// The parameters of a parameter_list.
    pub(crate) fn parameters(&mut self, pl: Node<'t>, lenient: bool) -> Res<(Vec<Param>, bool)> {
        let mut params = Vec::new();
        let mut variadic = false;
        let mut c = pl.walk();
        let children: Vec<Node<'t>> = pl.named_children(&mut c).collect();
        for p in children {
            match p.kind() {
                "parameter_declaration" => {
                    let (base, _) = self.specifiers(p)?;
                    let d = self.declarator(crate::ast::child(p, "declarator"), base, lenient)?;
                    if d.params.is_some() {
                        return err(Pos::of(p), "function pointers are not supported");
                    }
                    let ty = match d.ty {
                        Type::Array(elem, _) => Type::Pointer(elem),
                        t => t,
                    };
                    if ty == Type::Void && d.name.is_empty() {
                        continue;
                    }
                    let name = if d.name.is_empty() {
                        None
                    } else {
                        Some(d.name)
                    };
                    params.push((name, ty, Pos::of(p)));
                }
                "variadic_parameter" => variadic = true,
                "comment" => {}
                "identifier" => {
                    return err(
                        Pos::of(p),
                        format!(
                            "old-style (K&R) parameter `{}` is not supported: declare each \
                             parameter's type in the list, e.g. `int main(int argc, char **argv)`",
                            self.text(p)
                        ),
                    )
                }
                other => return err(Pos::of(p), format!("parameter ({other}) is not supported")),
            }
        }
        if pl.child_count() > 0 && self.text(pl).contains("...") {
            variadic = true;
        }
        Ok((params, variadic))
    }

    /// `offsetof(ty, member)`: the member's byte offset (C layout, LP64).
    pub(crate) fn offset_of(&self, ty: &Type, member: &str, pos: Pos) -> Res<u64> {
        let Type::Struct(id) = ty else {
            return err(
                pos,
                format!(
                    "offsetof needs a struct or union type, not `{}`",
                    self.type_name(ty)
                ),
            );
        };
        let def = &self.ctx.structs[id.0 as usize];
        if self.ctx.incomplete[id.0 as usize] {
            return err(
                pos,
                format!("offsetof of the incomplete type `{}`", self.type_name(ty)),
            );
        }
        let Some(k) = def.field_index(member) else {
            return err(
                pos,
                format!("`{}` has no member named `{member}`", self.type_name(ty)),
            );
        };
        field_offset(&self.ctx.structs, *id, k).ok_or_else(|| crate::ast::AstError {
            pos,
            message: format!(
                "offsetof in `{}`, whose layout depends on a non-constant array size",
                self.type_name(ty)
            ),
        })
    }

    /// The type named by a type_descriptor (casts, sizeof).
    pub(crate) fn type_descriptor(&mut self, node: Node<'t>) -> Res<Type> {
        let (base, _) = self.specifiers(node)?;
        let d = self.declarator(crate::ast::child(node, "declarator"), base, false)?;
        if d.params.is_some() {
            return err(Pos::of(node), "function types are not supported");
        }
        Ok(d.ty)
    }

    /// A `struct` or `union` specifier (both kept as [`StructDef`]s; see
    /// [`AggregateKind`]).
    fn struct_type(&mut self, node: Node<'t>) -> Res<Type> {
        let pos = Pos::of(node);
        let kind = if node.kind() == "union_specifier" {
            AggregateKind::Union
        } else {
            AggregateKind::Struct
        };
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string());
        let body = crate::ast::child(node, "body");
        // `struct __attribute__((packed)) P {...}` (and an attribute after
        // the body) changes the layout, which tass would not follow.
        let mut c = node.walk();
        if let Some(attr) = node
            .children(&mut c)
            .find(|ch| ch.kind() == "attribute_specifier")
        {
            return err(
                Pos::of(attr),
                "attributes are not supported (a struct's layout is gcc's default one)",
            );
        }
        let existing = name
            .as_ref()
            .and_then(|n| self.ctx.struct_tags.get(n).copied());
        let id = match (existing, body.is_some()) {
            (Some(id), false) => return Ok(Type::Struct(id)),
            (Some(id), true) if self.ctx.incomplete[id.0 as usize] => id,
            (Some(_), true) => {
                return err(
                    pos,
                    format!("redefinition of struct `{}`", name.unwrap_or_default()),
                )
            }
            (None, _) => {
                let id = StructId(self.ctx.structs.len() as u32);
                let span = self.span(pos);
                self.ctx.structs.push(StructDef {
                    id,
                    kind,
                    name: name
                        .clone()
                        .unwrap_or_else(|| format!("<anonymous {}>", id.0)),
                    fields: vec![],
                    span,
                });
                self.ctx.incomplete.push(true);
                if let Some(n) = &name {
                    self.ctx.struct_tags.insert(n.clone(), id);
                }
                if body.is_none() {
                    return Ok(Type::Struct(id));
                }
                id
            }
        };
        let Some(body) = body else {
            return Ok(Type::Struct(id));
        };
        let mut fields = Vec::new();
        let mut c = body.walk();
        let decls: Vec<Node<'t>> = body.named_children(&mut c).collect();
        for fd in decls {
            match fd.kind() {
                "field_declaration" => {
                    let mut c2 = fd.walk();
                    if fd
                        .children(&mut c2)
                        .any(|ch| ch.kind() == "bitfield_clause")
                    {
                        return err(Pos::of(fd), "bit-fields are not supported");
                    }
                    let (base, _) = self.specifiers(fd)?;
                    let mut c3 = fd.walk();
                    let decls: Vec<Node<'t>> =
                        fd.children_by_field_name("declarator", &mut c3).collect();
                    if decls.is_empty() {
                        return err(Pos::of(fd), "anonymous struct members are not supported");
                    }
                    for d in decls {
                        let d = self.declarator(Some(d), base.clone(), false)?;
                        if d.params.is_some() {
                            return err(d.pos, "function pointers are not supported");
                        }
                        if fields.iter().any(|f: &Field| f.name == d.name) {
                            return err(d.pos, format!("duplicate field `{}`", d.name));
                        }
                        fields.push(Field {
                            name: d.name,
                            ty: d.ty,
                        });
                    }
                }
                "comment" => {}
                other => {
                    return err(
                        Pos::of(fd),
                        format!("struct member ({other}) is not supported"),
                    )
                }
            }
        }
        let span = self.span(pos);
        let def = &mut self.ctx.structs[id.0 as usize];
        def.fields = fields;
        def.span = span;
        self.ctx.incomplete[id.0 as usize] = false;
        if name.as_deref() == Some("MPI_Status") {
            self.ctx.mpi_status = Some(id);
        }
        Ok(Type::Struct(id))
    }

    fn enum_type(&mut self, node: Node<'t>) -> Res<Type> {
        let tag = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string());
        let mut values = Vec::new();
        if let Some(body) = crate::ast::child(node, "body") {
            let mut next: i128 = 0;
            let mut c = body.walk();
            let items: Vec<Node<'t>> = body.named_children(&mut c).collect();
            for e in items {
                if e.kind() != "enumerator" {
                    continue;
                }
                let Some(name_node) = crate::ast::child(e, "name") else {
                    continue;
                };
                let name = self.text(name_node).to_string();
                if let Some(v) = crate::ast::child(e, "value") {
                    let ast = convert(v, self.src)?;
                    let saved = self.pure_context.replace("an enum value");
                    let r = self.rvalue(&ast);
                    self.pure_context = saved;
                    let x = r?;
                    match fold_int(&x) {
                        Some(k) => next = k,
                        None => {
                            return err(Pos::of(v), "an enum value must be an integer constant")
                        }
                    }
                }
                self.declare(&name, Sym::EnumConst(next));
                values.push(next);
                next += 1;
            }
        } else if let Some(ty) = tag.as_ref().and_then(|t| self.ctx.enum_tags.get(t)) {
            return Ok(ty.clone());
        }
        let ty = enum_underlying(&values);
        if let Some(t) = tag {
            self.ctx.enum_tags.insert(t, ty.clone());
        }
        Ok(ty)
    }

    pub(crate) fn type_definition(&mut self, node: Node<'t>) -> Res<()> {
        let (base, _) = self.specifiers(node)?;
        let mut c = node.walk();
        let decls: Vec<Node<'t>> = node.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let d = self.declarator(Some(d), base.clone(), false)?;
            if d.params.is_some() {
                return err(
                    d.pos,
                    "function types and function pointers are not supported",
                );
            }
            if let Type::Struct(id) = &d.ty {
                let s = &mut self.ctx.structs[id.0 as usize];
                if s.name.starts_with("<anonymous") {
                    s.name = d.name.clone();
                    if d.name == "MPI_Status" {
                        self.ctx.mpi_status = Some(*id);
                    }
                }
            }
            let sig = self
                .ctx
                .fn_pointer_decls
                .remove(&(d.pos.row, d.pos.col))
                .or_else(|| self.typedef_sig_for(&d.ty));
            if let Some(sig) = sig {
                self.ctx.fn_pointer_typedefs.insert(d.name.clone(), sig);
            }
            self.declare(&d.name, Sym::Typedef(d.ty));
        }
        Ok(())
    }

    /// Registers (or updates) the function that the function declarator `d`
    /// declares; returns its index in `ctx.fns`.
    pub(crate) fn register_function(
        &mut self,
        d: &Declared<'t>,
        kind: FunctionKind,
        form: DeclarationForm,
    ) -> Res<usize> {
        let (name, pos) = (d.name.as_str(), d.pos);
        let return_type = d.ty.clone();
        let (params, variadic) = match &d.params {
            Some((params, variadic)) => (params.as_slice(), *variadic),
            None => (&[][..], false),
        };
        let has_body = form == DeclarationForm::Definition;
        let span = self.span(pos);
        if let Some(sym) = self.ctx.globals.get(name).cloned() {
            match sym {
                Sym::Func(i) => {
                    let f = &mut self.ctx.fns[i];
                    if has_body && f.has_body {
                        return err(pos, format!("redefinition of function `{name}`"));
                    }
                    if !f.has_body {
                        f.param_names = params.iter().map(|p| p.0.clone()).collect();
                    }
                    if has_body {
                        f.has_body = true;
                        f.span = span;
                        f.param_types = params.iter().map(|p| p.1.clone()).collect();
                        f.return_type = return_type;
                        f.variadic = variadic;
                    }
                    if !matches!(kind, FunctionKind::User) {
                        f.kind = kind;
                    }
                    self.assign_model_id(i);
                    return Ok(i);
                }
                _ => {
                    return err(
                        pos,
                        format!("`{name}` is already declared as something other than a function"),
                    )
                }
            }
        }
        let i = self.ctx.fns.len();
        self.ctx.fns.push(FnInfo {
            name: name.to_string(),
            return_type,
            param_types: params.iter().map(|p| p.1.clone()).collect(),
            param_names: params.iter().map(|p| p.0.clone()).collect(),
            variadic,
            has_body,
            kind,
            model_id: None,
            function: None,
            span,
            first_call: None,
        });
        self.ctx.globals.insert(name.to_string(), Sym::Func(i));
        self.assign_model_id(i);
        Ok(i)
    }

    fn assign_model_id(&mut self, i: usize) {
        let f = &self.ctx.fns[i];
        if f.model_id.is_none() && (f.has_body || !matches!(f.kind, FunctionKind::User)) {
            let id = FunctionId(self.ctx.model_fn_count);
            self.ctx.model_fn_count += 1;
            self.ctx.fns[i].model_id = Some(id);
        }
    }

    /// Pass 1 for a function definition.
    pub(crate) fn function_signature(&mut self, node: Node<'t>) -> Res<usize> {
        let (base, _) = self.specifiers(node)?;
        let d = self.declarator(crate::ast::child(node, "declarator"), base, true)?;
        let Some((_, variadic)) = &d.params else {
            return err(d.pos, "expected a function declarator");
        };
        if *variadic {
            return err(d.pos, "variadic functions are not supported");
        }
        self.register_function(&d, FunctionKind::User, DeclarationForm::Definition)
    }

    /// A file-scope declaration (variables and prototypes).
    pub(crate) fn global_declaration(
        &mut self,
        node: Node<'t>,
        pragma: Option<Pragma<'t>>,
    ) -> Res<()> {
        let (base, flags) = self.specifiers(node)?;
        let mut c = node.walk();
        let decls: Vec<Node<'t>> = node.children_by_field_name("declarator", &mut c).collect();
        let mut pragma = pragma;
        for dn in decls {
            let (dnode, value) = declarator_and_value(dn);
            let d = self.declarator(dnode, base.clone(), true)?;
            if d.params.is_some() {
                let kind = match pragma.take().map(|p| (p.pos, p.kind)) {
                    None => FunctionKind::User,
                    Some((_, PragmaKind::Abstract)) => FunctionKind::Abstract,
                    Some((_, PragmaKind::System { guard })) => {
                        let g = match guard {
                            Some(g) => {
                                self.in_pragma = true;
                                let r = self.cond(&g);
                                self.in_pragma = false;
                                Some(r?)
                            }
                            None => None,
                        };
                        FunctionKind::System { guard: g }
                    }
                    Some((pos, k)) => {
                        return err(
                            pos,
                            format!(
                            "`#pragma TASS {}` must precede a variable declaration, not a function",
                            k.keyword()
                        ),
                        )
                    }
                };
                if matches!(kind, FunctionKind::Abstract) && d.ty == Type::Void {
                    return err(d.pos, "an abstract function must return a value");
                }
                self.register_function(&d, kind, DeclarationForm::Prototype)?;
                continue;
            }
            if let Some(p) = &pragma {
                if matches!(p.kind, PragmaKind::System { .. } | PragmaKind::Abstract) {
                    return err(
                        p.pos,
                        format!(
                            "`#pragma TASS {}` must precede a function declaration",
                            p.kind.keyword()
                        ),
                    );
                }
            }
            if d.ty == Type::Void {
                return err(d.pos, format!("variable `{}` has type void", d.name));
            }
            if flags.is_extern && value.is_none() {
                if let Some(c) = LibraryConstant::from_c_name(&d.name) {
                    self.ctx
                        .globals
                        .insert(d.name.clone(), Sym::LibConst(c, d.ty.clone()));
                    continue;
                }
            }
            let ty = self.sized_by_initializer(&d.ty, value);
            let span = self.span(d.pos);
            let scope = match pragma.as_ref().map(|p| &p.kind) {
                Some(PragmaKind::Input { .. }) => VarScope::Input,
                Some(PragmaKind::Output) => VarScope::Output,
                _ => VarScope::ProcessGlobal,
            };
            let var = match self.ctx.globals.get(&d.name).cloned() {
                Some(Sym::Var(v))
                    if self.ctx.var(v).scope == VarScope::ProcessGlobal
                        && scope == VarScope::ProcessGlobal =>
                {
                    if let Type::Array(_, Some(_)) = ty {
                        self.ctx.variables[v.0 as usize].ty = ty.clone();
                    }
                    v
                }
                Some(Sym::Var(v)) => {
                    if scope != VarScope::ProcessGlobal || self.ctx.var(v).scope != VarScope::Input
                    {
                        return err(d.pos, format!("redeclaration of `{}`", d.name));
                    }
                    v
                }
                Some(Sym::Func(_)) => {
                    return err(
                        d.pos,
                        format!("`{}` is already declared as a function", d.name),
                    )
                }
                _ => {
                    let v = self.ctx.new_var(&d.name, ty.clone(), scope, span.clone());
                    self.note_fn_pointer(v, d.pos);
                    self.ctx.variables[v.0 as usize].is_const =
                        flags.is_const && !matches!(ty, Type::Pointer(_));
                    match scope {
                        VarScope::Input => self.ctx.inputs.push(v),
                        VarScope::Output => self.ctx.outputs.push(v),
                        _ => self.ctx.process_globals.push(v),
                    }
                    self.ctx.globals.insert(d.name.clone(), Sym::Var(v));
                    v
                }
            };
            if let Some(PragmaKind::Input { constraint, .. }) = pragma.as_mut().map(|p| &mut p.kind)
            {
                if value.is_some() {
                    return err(
                        d.pos,
                        format!("input variable `{}` cannot have an initializer (its value is symbolic)", d.name),
                    );
                }
                if let Some(c) = constraint.take() {
                    self.deferred_constraints.push((var, c));
                }
            }
            if let Some(v) = value {
                self.global_initializer(var, ty, v)?;
            }
        }
        Ok(())
    }

    /// The declared type `ty`, or for an array of unknown size (`int a[] =
    /// {...}`) the array of as many elements as its initializer `value` gives.
    pub(crate) fn sized_by_initializer(&self, ty: &Type, value: Option<Node<'t>>) -> Type {
        if let (Type::Array(elem, None), Some(v)) = (ty, value) {
            if let Some(n) = self.initializer_length(v) {
                return Type::Array(
                    elem.clone(),
                    Some(Box::new(Expr::int(n, Span::synthetic()))),
                );
            }
        }
        ty.clone()
    }

    /// Number of elements an initializer gives an array of unknown size.
    pub(crate) fn initializer_length(&self, v: Node<'t>) -> Option<i128> {
        match v.kind() {
            "initializer_list" => {
                let mut c = v.walk();
                let mut n: i128 = 0;
                let mut max: i128 = 0;
                for ch in v.named_children(&mut c) {
                    if ch.kind() == "comment" {
                        continue;
                    }
                    if ch.kind() == "initializer_pair" {
                        let d = crate::ast::child(ch, "designator")?;
                        if d.kind() == "subscript_designator" {
                            let idx = d.named_child(0)?;
                            n = self.text(idx).trim().parse().ok()?;
                        }
                    }
                    n += 1;
                    max = max.max(n);
                }
                Some(max)
            }
            "string_literal" => {
                let s = crate::ast::convert(v, self.src).ok()?;
                match s.kind {
                    crate::ast::AstKind::Str(b) => Some(b.len() as i128 + 1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Translates a global's initializer into the list run at the start of
    /// main.
    pub(crate) fn global_initializer(&mut self, var: VarId, ty: Type, value: Node<'t>) -> Res<()> {
        let span = self.span(Pos::of(value));
        let saved_fb = self.fb.replace(FnBuilder::new(span.clone(), Type::Void));
        let saved_pure = self.pure_context.replace("a global initializer");
        if let Some(fb) = self.fb.as_mut() {
            fb.text = format!(
                "{} = {}",
                self.ctx.variables[var.0 as usize].name,
                super::first_line(crate::ast::text(value, self.src))
            );
        }
        let lhs = Expr::new(ExprKind::Var(var), ty.clone(), span.clone());
        // static initializers see only file-scope names
        let saved_scopes = std::mem::take(&mut self.scopes);
        let r = self.initialize(lhs, &ty, value);
        self.scopes = saved_scopes;
        self.pure_context = saved_pure;
        let fb = std::mem::replace(&mut self.fb, saved_fb);
        r?;
        let Some(fb) = fb else { return Ok(()) };
        let (body, _) = fb.finish();
        let mut at = body.entry;
        loop {
            let out: Vec<_> = body
                .outgoing(at)
                .map(|(id, _, target)| (id, target))
                .collect();
            match out.as_slice() {
                [] => break,
                [(eid, target)] => {
                    let t = body.transition(*eid);
                    self.ctx.init.push((
                        t.statement.clone(),
                        t.span.clone(),
                        t.source_text.clone(),
                    ));
                    at = *target;
                }
                _ => {
                    return err(
                        Pos::of(value),
                        "a global initializer must be a constant expression",
                    )
                }
            }
        }
        Ok(())
    }
}

/// Folds an integer constant expression.
pub(crate) fn fold_int(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::IntLit(v) => Some(*v),
        ExprKind::CharLit(c) => Some(char_byte_value(*c)),
        ExprKind::BoolLit(b) => Some(*b as i128),
        ExprKind::Cast(a) if e.ty.is_integer() => fold_int(a),
        ExprKind::Unary(UnaryOp::Neg, a) => fold_int(a)?.checked_neg(),
        ExprKind::Unary(UnaryOp::BitNot, a) => Some(!fold_int(a)?),
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (fold_int(a)?, fold_int(b)?);
            match op {
                BinaryOp::Add => x.checked_add(y),
                BinaryOp::Sub => x.checked_sub(y),
                BinaryOp::Mul => x.checked_mul(y),
                BinaryOp::Div if y != 0 => x.checked_div(y),
                BinaryOp::Mod if y != 0 => x.checked_rem(y),
                BinaryOp::Shl if (0..64).contains(&y) => x.checked_shl(y as u32),
                BinaryOp::Shr if (0..64).contains(&y) => x.checked_shr(y as u32),
                BinaryOp::BitAnd => Some(x & y),
                BinaryOp::BitOr => Some(x | y),
                BinaryOp::BitXor => Some(x ^ y),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Gives every node of a type's extent expression the synthetic span, so that
/// types compare equal by structure (`Type: PartialEq` sees spans).
pub(crate) fn strip_spans(e: &mut Expr) {
    e.span = Span::synthetic();
    strip_type(&mut e.ty);
    match &mut e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::AddressOf(a)
        | ExprKind::Deref(a)
        | ExprKind::Field(a, _)
        | ExprKind::Decay(a)
        | ExprKind::Cast(a) => strip_spans(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::LogicalAnd(a, b)
        | ExprKind::LogicalOr(a, b)
        | ExprKind::Index(a, b) => {
            strip_spans(a);
            strip_spans(b);
        }
        ExprKind::Conditional(a, b, c) => {
            strip_spans(a);
            strip_spans(b);
            strip_spans(c);
        }
        ExprKind::MathCall(_, args) | ExprKind::AbstractCall(_, args) => {
            args.iter_mut().for_each(strip_spans)
        }
        ExprKind::SizeOf(t) => strip_type(t),
        _ => {}
    }
}

fn strip_type(t: &mut Type) {
    match t {
        Type::Pointer(x) => strip_type(x),
        Type::Array(x, ext) => {
            strip_type(x);
            if let Some(e) = ext {
                strip_spans(e);
            }
        }
        _ => {}
    }
}

/// The pointer declarator of `(*name)` in `R (*name)(P...)`.
fn fn_pointer_declarator(inner: Node<'_>) -> Option<Node<'_>> {
    if !inner.kind().contains("parenthesized_declarator") {
        return None;
    }
    inner
        .named_child(0)
        .filter(|p| p.kind().contains("pointer_declarator"))
}

/// The integer type gcc (x86-64, without `-fshort-enums`) gives an enumerated
/// type with these enumerator values: `unsigned int` when none is negative,
/// `int` when one is, and the 64-bit type of the same signedness when a value
/// does not fit 32 bits. (`(enum E)-1 > 0` holds for `enum E { A, B }`.)
fn enum_underlying(values: &[i128]) -> Type {
    let negative = values.iter().any(|&v| v < 0);
    let fits = |lo: i128, hi: i128| values.iter().all(|&v| lo <= v && v <= hi);
    Type::Int(match negative {
        false if fits(0, u32::MAX as i128) => IntKind::Unsigned,
        false => IntKind::UnsignedLong,
        true if fits(i32::MIN as i128, i32::MAX as i128) => IntKind::Int,
        true => IntKind::Long,
    })
}
