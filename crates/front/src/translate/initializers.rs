//! Initializers: `= value`, `= {...}` with designators, `char s[N] = "..."`.

use tass_model::api::*;
use tree_sitter::Node;

use super::calls::CallResult;
use super::expr::peel_casts;
use super::{bx, err, Res, Tr};
use crate::ast::{convert_full, AstKind, Pos};

impl<'t> Tr<'t> {
    /// Initializes `lhs` (of type `ty`) from an initializer node.
    pub(crate) fn initialize(&mut self, lhs: Expr, ty: &Type, value: Node<'t>) -> Res<()> {
        let pos = Pos::of(value);
        let span = self.span(pos);
        if value.kind() == "initializer_list" {
            let mut c = value.walk();
            let items: Vec<Node<'t>> = value
                .named_children(&mut c)
                .filter(|n| n.kind() != "comment")
                .collect();
            return match ty {
                Type::Array(elem, _) => self.initialize_array(lhs, ty, elem, &items, pos),
                Type::Struct(id) => self.initialize_struct(lhs, ty, *id, &items, pos),
                _ => match items.first() {
                    Some(first) if items.len() == 1 => self.initialize(lhs, ty, *first),
                    _ => err(
                        pos,
                        "an initializer list for a scalar must hold exactly one value",
                    ),
                },
            };
        }
        let ast = convert_full(value, self.src)?;
        if let (Type::Array(elem, size), AstKind::Str(bytes)) = (ty, &ast.kind) {
            if **elem == Type::Char {
                let declared = size.as_deref().and_then(super::types::fold_int);
                return self.initialize_char_array(lhs, bytes, declared, span);
            }
        }
        if matches!(ty, Type::Array(..)) {
            return err(pos, "an array must be initialized with `{...}`");
        }
        if let AstKind::Call(f, args) = &peel_casts(&ast).kind {
            self.call(f, args, CallResult::StoreIn(lhs), ast.pos)?;
            return Ok(());
        }
        let e = self.rvalue(&ast)?;
        let e = self.convert(e, ty, pos)?;
        self.emit(Statement::Assign { lhs, rhs: e });
        Ok(())
    }

    /// `{a, [k] = b, ...}` for an array: zero first, then the elements in order,
    /// a designator moving the position.
    fn initialize_array(
        &mut self,
        lhs: Expr,
        ty: &Type,
        elem: &Type,
        items: &[Node<'t>],
        pos: Pos,
    ) -> Res<()> {
        let span = self.span(pos);
        self.emit(Statement::Assign {
            lhs: lhs.clone(),
            rhs: Expr::new(ExprKind::Zero, ty.clone(), span.clone()),
        });
        let mut idx: i128 = 0;
        for &it in items {
            let v = if it.kind() == "initializer_pair" {
                idx = self.array_designator(it)?;
                designated_value(it)?
            } else {
                it
            };
            let el = Expr::new(
                ExprKind::Index(bx(lhs.clone()), bx(Expr::int(idx, span.clone()))),
                elem.clone(),
                span.clone(),
            );
            self.initialize(el, elem, v)?;
            idx += 1;
        }
        Ok(())
    }

    /// The index `k` of an array designator `[k] = value`.
    fn array_designator(&mut self, pair: Node<'t>) -> Res<i128> {
        let index = match crate::ast::child(pair, "designator") {
            Some(d) if d.kind() == "subscript_designator" => {
                let Some(inner) = d.named_child(0) else {
                    return err(Pos::of(d), "malformed designator");
                };
                let ast = convert_full(inner, self.src)?;
                let e = self.rvalue(&ast)?;
                match super::types::fold_int(&e) {
                    Some(k) => k,
                    None => {
                        return err(
                            Pos::of(d),
                            "an array designator must be an integer constant",
                        )
                    }
                }
            }
            _ => {
                return err(
                    Pos::of(pair),
                    "this designator is not supported for an array",
                )
            }
        };
        let mut c = pair.walk();
        if pair.children_by_field_name("designator", &mut c).count() > 1 {
            return err(Pos::of(pair), "nested designators are not supported");
        }
        Ok(index)
    }

    /// `{a, .f = b, ...}` for a struct or union: zero first, then the fields in
    /// order, a designator moving the position.
    fn initialize_struct(
        &mut self,
        lhs: Expr,
        ty: &Type,
        id: StructId,
        items: &[Node<'t>],
        pos: Pos,
    ) -> Res<()> {
        let span = self.span(pos);
        if self.ctx.structs[id.0 as usize].is_union() && items.len() > 1 {
            return err(pos, "an initializer list for a union holds one value");
        }
        self.emit(Statement::Assign {
            lhs: lhs.clone(),
            rhs: Expr::new(ExprKind::Zero, ty.clone(), span.clone()),
        });
        let mut fi = 0usize;
        for &it in items {
            let v = if it.kind() == "initializer_pair" {
                fi = self.field_designator(it, id)?;
                designated_value(it)?
            } else {
                it
            };
            let def = &self.ctx.structs[id.0 as usize];
            let Some(field) = def.fields.get(fi) else {
                return err(
                    Pos::of(it),
                    format!("too many initializers for struct `{}`", def.name),
                );
            };
            let fty = field.ty.clone();
            let fe = Expr::new(
                ExprKind::Field(bx(lhs.clone()), fi),
                fty.clone(),
                span.clone(),
            );
            self.initialize(fe, &fty, v)?;
            fi += 1;
        }
        Ok(())
    }

    /// The field index of a designator `.f = value` of struct `id`.
    fn field_designator(&self, pair: Node<'t>, id: StructId) -> Res<usize> {
        let fname = match crate::ast::child(pair, "designator") {
            Some(d) if d.kind() == "field_designator" => d
                .named_child(0)
                .map(|n| self.text(n).to_string())
                .unwrap_or_default(),
            Some(d) if d.kind() == "field_identifier" => self.text(d).to_string(),
            _ => {
                return err(
                    Pos::of(pair),
                    "this designator is not supported for a struct",
                )
            }
        };
        let def = &self.ctx.structs[id.0 as usize];
        match def.field_index(&fname) {
            Some(i) => Ok(i),
            None => err(
                Pos::of(pair),
                format!("struct `{}` has no field `{fname}`", def.name),
            ),
        }
    }

    /// `char s[N] = "..."`: the array keeps its declared length `N`, as in C: a
    /// shorter literal is padded with zeros, one of exactly `N` characters keeps no
    /// terminating zero (and a longer one is cut to `N`, as gcc does after its
    /// warning). Without a declared length the literal's own length (with the zero)
    /// is the array's.
    fn initialize_char_array(
        &mut self,
        lhs: Expr,
        bytes: &[u8],
        declared: Option<i128>,
        span: Span,
    ) -> Res<()> {
        let length = match declared {
            Some(n) if n >= 0 => n as usize,
            _ => bytes.len() + 1,
        };
        if length > bytes.len() {
            let mut padded = bytes.to_vec();
            padded.resize(length - 1, 0);
            let ty = Type::Array(
                Box::new(Type::Char),
                Some(bx(Expr::int(length as i128, span.clone()))),
            );
            let rhs = Expr::new(ExprKind::StringLit(padded), ty, span);
            self.emit(Statement::Assign { lhs, rhs });
            return Ok(());
        }
        // no room for the terminating zero: the characters one by one
        for (i, &b) in bytes.iter().take(length).enumerate() {
            let element = Expr::new(
                ExprKind::Index(bx(lhs.clone()), bx(Expr::int(i as i128, span.clone()))),
                Type::Char,
                span.clone(),
            );
            let rhs = Expr::new(ExprKind::CharLit(b), Type::Char, span.clone());
            self.emit(Statement::Assign { lhs: element, rhs });
        }
        Ok(())
    }
}

/// The value of a designated initializer `designator = value`.
fn designated_value(pair: Node<'_>) -> Res<Node<'_>> {
    match crate::ast::child(pair, "value") {
        Some(v) => Ok(v),
        None => err(Pos::of(pair), "designator without a value"),
    }
}
