//! Building a function's guarded transition system.

use petgraph::visit::EdgeRef;
use tass_model::api::*;

/// The graph under construction and the control-flow context.
pub(crate) struct FnBuilder {
    pub graph: BodyGraph,
    pub entry: LocationId,
    /// Where the next statement starts; `None` after `return`/`break`/
    /// `continue` (code there is unreachable until a label location).
    pub cur: Option<LocationId>,
    pub locals: Vec<VarId>,
    pub breaks: Vec<LocationId>,
    pub continues: Vec<LocationId>,
    /// The labels (and `goto`s) of the function.
    pub labels: super::labels::FunctionLabels,
    pub return_type: Type,
    /// Span and text of the statement being translated.
    pub span: Span,
    pub text: String,
}

impl FnBuilder {
    pub(crate) fn new(span: Span, return_type: Type) -> FnBuilder {
        let mut graph = BodyGraph::new();
        let entry = graph.add_node(Location {
            kind: LocationKind::Plain,
            span: span.clone(),
            invariants: vec![],
        });
        FnBuilder {
            graph,
            entry,
            cur: Some(entry),
            locals: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            labels: Default::default(),
            return_type,
            span,
            text: String::new(),
        }
    }

    pub(crate) fn new_loc(&mut self, kind: LocationKind) -> LocationId {
        self.graph.add_node(Location {
            kind,
            span: self.span.clone(),
            invariants: vec![],
        })
    }

    /// Gives the current location the current statement's span if nothing
    /// leaves it yet (a location stands for the statement about to run).
    pub(crate) fn touch(&mut self) {
        if let Some(c) = self.cur {
            if self.graph.neighbors(c).next().is_none() {
                self.graph[c].span = self.span.clone();
            }
        }
    }

    pub(crate) fn here(&mut self) -> LocationId {
        match self.cur {
            Some(l) => l,
            None => {
                let l = self.new_loc(LocationKind::Plain);
                self.cur = Some(l);
                l
            }
        }
    }

    pub(crate) fn edge(&mut self, from: LocationId, to: LocationId, guard: Expr, st: Statement) {
        self.graph.add_edge(
            from,
            to,
            Transition {
                guard,
                statement: st,
                span: self.span.clone(),
                source_text: self.text.clone(),
            },
        );
    }

    /// Appends a statement at the current location.
    pub(crate) fn emit(&mut self, st: Statement) {
        let from = self.here();
        let to = self.new_loc(LocationKind::Plain);
        let t = Expr::true_at(self.span.clone());
        self.edge(from, to, t, st);
        self.cur = Some(to);
    }

    /// Jumps to `target` (a noop edge) and makes the current point unreachable.
    pub(crate) fn goto(&mut self, target: LocationId) {
        if let Some(c) = self.cur {
            let t = Expr::true_at(self.span.clone());
            self.edge(c, target, t, Statement::Noop);
        }
        self.cur = None;
    }

    /// Makes `target` the current location, falling through into it from the
    /// current one if reachable.
    pub(crate) fn enter(&mut self, target: LocationId) {
        if self.cur != Some(target) {
            self.goto(target);
        }
        self.cur = Some(target);
    }

    /// Branches on `cond`: returns the locations where it holds and where it
    /// does not (the second is unreachable when `cond` is the literal true).
    pub(crate) fn branch(&mut self, cond: Expr) -> (LocationId, LocationId) {
        let from = self.here();
        let yes = self.new_loc(LocationKind::Plain);
        let no = self.new_loc(LocationKind::Plain);
        match cond.kind {
            ExprKind::BoolLit(true) => {
                self.edge(from, yes, cond, Statement::Noop);
            }
            ExprKind::BoolLit(false) => {
                self.edge(from, no, Expr::true_at(cond.span.clone()), Statement::Noop);
            }
            _ => {
                self.edge(from, yes, cond.clone(), Statement::Noop);
                self.edge(from, no, cond.negated(), Statement::Noop);
            }
        }
        self.cur = None;
        (yes, no)
    }

    /// Returns from the function.
    pub(crate) fn ret(&mut self, value: Option<Expr>) {
        let from = self.here();
        let exit = self.new_loc(LocationKind::Exit);
        let t = Expr::true_at(self.span.clone());
        self.edge(from, exit, t, Statement::Return { value });
        self.cur = None;
    }

    /// Redirects edges that enter a plain location whose single outgoing edge
    /// is `true / noop` to that edge's target.
    fn contract_noops(&mut self) {
        let n = self.graph.node_count();
        let mut forward: Vec<Option<LocationId>> = vec![None; n];
        for l in self.graph.node_indices() {
            if self.graph[l].kind != LocationKind::Plain {
                continue;
            }
            let mut out = self.graph.edges(l);
            let (Some(e), None) = (out.next(), out.next()) else {
                continue;
            };
            let t = e.weight();
            if t.guard.is_true() && t.statement == Statement::Noop && e.target() != l {
                forward[l.index()] = Some(e.target());
            }
        }
        let resolve = |mut l: LocationId| {
            let mut steps = 0;
            while let Some(next) = forward[l.index()] {
                l = next;
                steps += 1;
                if steps > n {
                    break; // a cycle of no-ops: leave it
                }
            }
            l
        };
        if forward.iter().all(Option::is_none) {
            return;
        }
        let (nodes, edges) = std::mem::take(&mut self.graph).into_nodes_edges();
        let mut graph = BodyGraph::with_capacity(nodes.len(), edges.len());
        for node in nodes {
            graph.add_node(node.weight);
        }
        for e in edges {
            let (a, b) = (e.source(), e.target());
            if forward[a.index()].is_some() && resolve(a) != a {
                continue; // the contracted no-op itself
            }
            graph.add_edge(a, resolve(b), e.weight);
        }
        self.entry = resolve(self.entry);
        self.graph = graph;
    }

    /// The body, without the locations control can never reach (code after
    /// `return`, the unused exits of infinite loops) and without plain
    /// locations whose only way out is an unguarded no-op (their incoming
    /// edges go straight on), renumbered in creation order.
    /// Also returns each defined label's location in the finished body
    /// (`None` when control never reaches it).
    pub(crate) fn finish(mut self) -> (Body, Vec<(String, Option<LocationId>)>) {
        let mut labels: Vec<(String, LocationId)> = self
            .labels
            .sites
            .iter()
            .filter(|(_, site)| site.defined_at.is_some())
            .map(|(name, site)| (name.clone(), site.location))
            .collect();
        labels.sort();
        // contracting keeps every node (and its index); it never merges a label
        self.contract_noops();
        let n = self.graph.node_count();
        let mut reachable = vec![false; n];
        let mut stack = vec![self.entry];
        reachable[self.entry.index()] = true;
        while let Some(l) = stack.pop() {
            for next in self.graph.neighbors(l) {
                if !reachable[next.index()] {
                    reachable[next.index()] = true;
                    stack.push(next);
                }
            }
        }
        if reachable.iter().all(|r| *r) {
            let labels = labels.into_iter().map(|(n, l)| (n, Some(l))).collect();
            let body = Body {
                graph: self.graph,
                entry: self.entry,
            };
            return (body, labels);
        }
        let (nodes, edges) = self.graph.into_nodes_edges();
        let mut graph = BodyGraph::with_capacity(nodes.len(), edges.len());
        let mut map = vec![None; n];
        for (k, node) in nodes.into_iter().enumerate() {
            if reachable[k] {
                map[k] = Some(graph.add_node(node.weight));
            }
        }
        for e in edges {
            if let (Some(x), Some(y)) = (map[e.source().index()], map[e.target().index()]) {
                graph.add_edge(x, y, e.weight);
            }
        }
        let entry = map[self.entry.index()].unwrap_or_default();
        let labels = labels
            .into_iter()
            .map(|(n, l)| (n, map[l.index()]))
            .collect();
        (Body { graph, entry }, labels)
    }
}
