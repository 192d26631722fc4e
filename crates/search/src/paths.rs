//! Paths kept after a search: a tree of their steps, so that paths sharing a
//! prefix store it once.
//!
//! `compare` keeps every completed path (the steps from the initial state to
//! each terminal state) for the traces of the violations it may report later.
//! Kept as one vector each, they were most of the memory of a manager-worker
//! run (np 5: 480 of 636 MB for 16,744 paths of ~500 steps each), although a
//! depth-first search meets its paths in an order where each shares most of its
//! steps with the one before.

use std::hash::{BuildHasher, Hash};

/// A stored path: the index of its last step's node plus one (0: the empty
/// path).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PathId(usize);

/// Paths stored as a tree of their steps: a node is a step and the node of the
/// step before it (its parent).
///
/// [`PathTree::insert`] shares the longest prefix the new path has in common
/// with the path inserted just before it (the depth-first order: consecutive
/// paths differ below the last branching point). Equal steps in equal
/// positions after an equal prefix make an equal path, so the sharing is exact:
/// [`PathTree::path`] gives back the steps inserted.
///
/// A node is 4 bytes where one holding its step and parent was 72 (a
/// `tass-state` step is 64 bytes): a search takes the same few thousand steps
/// again and again, and the tree's nodes number millions. Each distinct step
/// is stored once ([`Steps`]) and a node holds its number; a node's parent is
/// the node before it, except for the first node of each inserted suffix,
/// whose parent is recorded in `jumps`. The nodes are kept in chunks of
/// [`CHUNK`] that never grow after they are allocated: a single vector would
/// double, holding up to twice the nodes' memory, and three times while it
/// moves.
#[derive(Debug, Clone)]
pub struct PathTree<T> {
    /// The step number of node `i` is `chunks[i / CHUNK][i % CHUNK]`.
    chunks: Vec<Vec<u32>>,
    /// The nodes whose parent is not the node before them, with their parent
    /// (`PathId` numbering: 0 is the root), in increasing order of node. Node
    /// `i` not listed has parent `PathId(i)`, the node `i - 1` (the root for
    /// node 0).
    jumps: Vec<(usize, usize)>,
    /// How many nodes there are.
    len: usize,
    /// The nodes of the path inserted last, first step first.
    last: Vec<usize>,
    /// The distinct steps of the paths.
    steps: Steps<T>,
}

/// Nodes per chunk of a [`PathTree`].
const CHUNK: usize = 1 << 14;

/// The distinct steps of a [`PathTree`], numbered in the order first met:
/// each stored once, found again by its hash.
#[derive(Clone)]
struct Steps<T> {
    by_number: Vec<T>,
    /// Numbers into `by_number`, by the hash of the step.
    numbers: hashbrown::HashTable<u32>,
    hasher: std::hash::RandomState,
}

impl<T> std::fmt::Debug for Steps<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Steps({} distinct)", self.by_number.len())
    }
}

impl<T> Default for Steps<T> {
    fn default() -> Self {
        Steps {
            by_number: Vec::new(),
            numbers: hashbrown::HashTable::new(),
            hasher: std::hash::RandomState::new(),
        }
    }
}

impl<T: Hash + Eq + Clone> Steps<T> {
    /// The number of `step`, which is stored if it is new.
    fn number_of(&mut self, step: &T) -> u32 {
        let Steps {
            by_number,
            numbers,
            hasher,
        } = self;
        let hash = hasher.hash_one(step);
        if let Some(&n) = numbers.find(hash, |&n| by_number[n as usize] == *step) {
            return n;
        }
        // More than 2^32 distinct steps would need more memory than any
        // machine running this has (each step is stored).
        let n = u32::try_from(by_number.len()).expect("fewer than 2^32 distinct steps");
        by_number.push(step.clone());
        numbers.insert_unique(hash, n, |&m| hasher.hash_one(&by_number[m as usize]));
        n
    }

    fn get(&self, n: u32) -> &T {
        &self.by_number[n as usize]
    }
}

impl<T> Default for PathTree<T> {
    fn default() -> Self {
        PathTree {
            chunks: Vec::new(),
            jumps: Vec::new(),
            len: 0,
            last: Vec::new(),
            steps: Steps::default(),
        }
    }
}

impl<T> PathTree<T> {
    /// The step number of node `i`.
    fn step_of(&self, i: usize) -> u32 {
        self.chunks[i / CHUNK][i % CHUNK]
    }

    /// The parent of node `i` (`PathId` numbering).
    fn parent_of(&self, i: usize) -> usize {
        match self.jumps.binary_search_by_key(&i, |&(node, _)| node) {
            Ok(k) => self.jumps[k].1,
            Err(_) => i,
        }
    }

    /// Appends a node; returns its index.
    fn push(&mut self, parent: usize, step: u32) -> usize {
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        let chunk = self.chunks.last_mut().expect("a chunk with room");
        chunk.push(step);
        if parent != self.len {
            self.jumps.push((self.len, parent));
        }
        self.len += 1;
        self.len - 1
    }
}

impl<T: Clone + Hash + Eq> PathTree<T> {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `path`, sharing its common prefix with the path inserted last.
    pub fn insert(&mut self, path: &[T]) -> PathId {
        let shared = self
            .last
            .iter()
            .zip(path)
            .take_while(|(&node, step)| self.steps.get(self.step_of(node)) == *step)
            .count();
        self.last.truncate(shared);
        for step in &path[shared..] {
            let parent = self.last.last().map_or(0, |&node| node + 1);
            let number = self.steps.number_of(step);
            let node = self.push(parent, number);
            self.last.push(node);
        }
        PathId(self.last.last().map_or(0, |&node| node + 1))
    }

    /// The steps of the path `id` (as inserted).
    pub fn path(&self, id: PathId) -> Vec<T> {
        let mut steps = Vec::new();
        let mut at = id.0;
        while at != 0 {
            steps.push(self.steps.get(self.step_of(at - 1)).clone());
            at = self.parent_of(at - 1);
        }
        steps.reverse();
        steps
    }

    /// The number of steps stored (the nodes of the tree).
    pub fn stored_steps(&self) -> usize {
        self.len
    }

    /// The number of distinct steps among them.
    pub fn distinct_steps(&self) -> usize {
        self.steps.by_number.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_come_back_as_inserted_and_share_prefixes() {
        let mut tree = PathTree::new();
        let a = tree.insert(&[1, 2, 3, 4]);
        let b = tree.insert(&[1, 2, 5]);
        let c = tree.insert(&[1, 2, 5, 6, 7]);
        let empty = tree.insert(&[]);
        let d = tree.insert(&[9]);
        let e = tree.insert(&[1, 2, 3, 4]);
        assert_eq!(tree.path(a), vec![1, 2, 3, 4]);
        assert_eq!(tree.path(b), vec![1, 2, 5]);
        assert_eq!(tree.path(c), vec![1, 2, 5, 6, 7]);
        assert_eq!(tree.path(empty), Vec::<i32>::new());
        assert_eq!(tree.path(d), vec![9]);
        assert_eq!(tree.path(e), vec![1, 2, 3, 4]);
        // 4 + 1 + 2 + 1 + 4: a shares nothing, b shares 1 2, c shares 1 2 5,
        // the empty path and [9] share nothing, e shares nothing with [9].
        assert_eq!(tree.stored_steps(), 12);
        // 1 2 3 4 5 6 7 9: each kept once, whatever the nodes naming it.
        assert_eq!(tree.distinct_steps(), 8);
    }

    #[test]
    fn paths_across_chunks() {
        let mut tree = PathTree::new();
        let long: Vec<usize> = (0..CHUNK * 2 + 3).collect();
        let a = tree.insert(&long);
        let b = tree.insert(&long[..CHUNK + 1]);
        let mut other = long[..CHUNK].to_vec();
        other.push(7);
        let c = tree.insert(&other);
        assert_eq!(tree.path(a), long);
        assert_eq!(tree.path(b), long[..CHUNK + 1].to_vec());
        assert_eq!(tree.path(c), other);
        assert_eq!(tree.stored_steps(), long.len() + 1);
    }

    #[test]
    fn a_prefix_of_the_last_path_adds_nothing() {
        let mut tree = PathTree::new();
        tree.insert(&[1, 2, 3]);
        let p = tree.insert(&[1, 2]);
        assert_eq!(tree.stored_steps(), 3);
        assert_eq!(tree.path(p), vec![1, 2]);
        let q = tree.insert(&[1, 2, 3]);
        assert_eq!(tree.stored_steps(), 4);
        assert_eq!(tree.path(q), vec![1, 2, 3]);
    }

    proptest::proptest! {
        /// Any paths, in any order (not only depth-first), come back as
        /// inserted; a node is stored only where a path leaves the last one.
        #[test]
        fn any_paths_come_back_as_inserted(
            paths in proptest::collection::vec(proptest::collection::vec(0u8..4, 0..12), 1..40)
        ) {
            let mut tree = PathTree::new();
            let ids: Vec<PathId> = paths.iter().map(|p| tree.insert(p)).collect();
            for (id, p) in ids.iter().zip(&paths) {
                proptest::prop_assert_eq!(&tree.path(*id), p);
            }
            proptest::prop_assert!(tree.stored_steps() <= paths.iter().map(Vec::len).sum::<usize>());
            proptest::prop_assert!(tree.distinct_steps() <= 4);
        }
    }
}
