//! Connectivity of feature segments across the board.
//!
//! Every feature printed on a placed piece is a node. Nodes joined across
//! matching edges are unioned, and the root of a set carries what scoring needs
//! cheaply: open edges (zero means complete), followers, coats of arms. Each
//! set also keeps a circular member list so scoring can walk its segments.

use crate::catalog::FeatureKind;

/// A feature segment on the board (index of a node).
pub type NodeId = u32;

#[derive(Clone, Copy, Debug)]
struct Node {
    parent: NodeId,
    next: NodeId,
    piece: u16,
    feature: u8,
    kind: FeatureKind,
    // Meaningful at roots only.
    open: u16,
    followers: u8,
    arms: u8,
    closed: bool,
}

/// Union-find over feature segments.
#[derive(Debug, Default)]
pub struct Features {
    nodes: Vec<Node>,
}

impl Clone for Features {
    fn clone(&self) -> Features {
        Features {
            nodes: self.nodes.clone(),
        }
    }

    /// Copies into the existing buffer (tree search's scratch game).
    fn clone_from(&mut self, src: &Features) {
        self.nodes.clone_from(&src.nodes);
    }
}

impl Features {
    /// A new empty forest, with room for `capacity` segments.
    pub fn with_capacity(capacity: usize) -> Features {
        Features {
            nodes: Vec::with_capacity(capacity),
        }
    }

    /// Adds a segment: feature number `feature` of piece `piece`.
    pub fn add(&mut self, piece: u16, feature: u8, kind: FeatureKind, arms: u8) -> NodeId {
        self.add_open_edges(piece, feature, kind, arms, 0)
    }

    /// Adds a segment that starts with `open` open edges (a placement that
    /// knows them before its unions, instead of adding them side by side).
    pub(crate) fn add_open_edges(
        &mut self,
        piece: u16,
        feature: u8,
        kind: FeatureKind,
        arms: u8,
        open: u16,
    ) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent: id,
            next: id,
            piece,
            feature,
            kind,
            open,
            followers: 0,
            arms,
            closed: false,
        });
        id
    }

    /// Forgets every segment, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The root of the set holding `n`.
    pub fn root(&self, mut n: NodeId) -> NodeId {
        // Read-only lookup: every mutation goes through `find`, which halves
        // paths, so chains stay short.
        while self.nodes[n as usize].parent != n {
            n = self.nodes[n as usize].parent;
        }
        n
    }

    /// The root of `n`, compressing the path.
    pub fn find(&mut self, mut n: NodeId) -> NodeId {
        while self.nodes[n as usize].parent != n {
            let p = self.nodes[n as usize].parent;
            let gp = self.nodes[p as usize].parent;
            self.nodes[n as usize].parent = gp;
            n = gp;
        }
        n
    }

    /// Joins the sets of `a` and `b`; returns the new root. (The board
    /// joins roots it already holds, through `union_root`.)
    #[cfg(test)]
    pub fn union(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let ra = self.find(a);
        self.union_root(ra, b)
    }

    /// [`Features::union`] for an `a` that is a root already (a caller that
    /// found it for another update saves the second search).
    pub(crate) fn union_root(&mut self, ra: NodeId, b: NodeId) -> NodeId {
        let rb = self.find(b);
        if ra == rb {
            return ra;
        }
        // The older root stays root: keeps a feature's id stable as it grows.
        let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
        let g = self.nodes[gone as usize];
        {
            let k = &mut self.nodes[keep as usize];
            k.open += g.open;
            k.followers += g.followers;
            k.arms += g.arms;
            k.closed |= g.closed;
        }
        self.nodes[gone as usize].parent = keep;
        // Splice the two circular member lists.
        let kn = self.nodes[keep as usize].next;
        self.nodes[keep as usize].next = g.next;
        self.nodes[gone as usize].next = kn;
        keep
    }

    /// Kind of the feature.
    pub fn kind(&self, n: NodeId) -> FeatureKind {
        self.nodes[n as usize].kind
    }

    /// Piece and feature index of a segment.
    pub fn origin(&self, n: NodeId) -> (u16, u8) {
        let node = &self.nodes[n as usize];
        (node.piece, node.feature)
    }

    /// Open edges of the feature of `n`.
    pub fn open(&self, n: NodeId) -> u16 {
        self.nodes[self.root(n) as usize].open
    }

    /// Adds `delta` open edges to the feature of `n`.
    pub fn add_open(&mut self, n: NodeId, delta: i32) {
        let r = self.find(n) as usize;
        let v = self.nodes[r].open as i32 + delta;
        debug_assert!(v >= 0, "open edge count went negative");
        self.nodes[r].open = v.max(0) as u16;
    }

    /// [`Features::add_open`] for a root `r`, by one edge fewer.
    pub(crate) fn close_edge_at_root(&mut self, r: NodeId) {
        let node = &mut self.nodes[r as usize];
        debug_assert!(
            node.parent == r && node.open > 0,
            "closing an edge that is not open"
        );
        node.open = node.open.saturating_sub(1);
    }

    /// Followers standing on the feature of `n`.
    pub fn followers(&self, n: NodeId) -> u8 {
        self.nodes[self.root(n) as usize].followers
    }

    /// Adds `delta` followers to the feature of `n`.
    pub fn add_followers(&mut self, n: NodeId, delta: i8) {
        let r = self.find(n) as usize;
        self.nodes[r].followers = (self.nodes[r].followers as i16 + delta as i16).max(0) as u8;
    }

    /// Coats of arms in the feature of `n`.
    pub fn arms(&self, n: NodeId) -> u8 {
        self.nodes[self.root(n) as usize].arms
    }

    /// Whether the feature of `n` has been scored as complete.
    pub fn is_closed(&self, n: NodeId) -> bool {
        self.nodes[self.root(n) as usize].closed
    }

    /// Whether the feature of `n` is complete and not yet scored (no open
    /// edge, not closed), with its root: one search and one read.
    pub(crate) fn newly_complete(&self, n: NodeId) -> Option<NodeId> {
        let r = self.root(n);
        let node = &self.nodes[r as usize];
        (node.open == 0 && !node.closed).then_some(r)
    }

    /// Marks the feature of `n` as scored.
    pub fn close(&mut self, n: NodeId) {
        let r = self.find(n) as usize;
        self.nodes[r].closed = true;
    }

    /// Every segment of the feature of `n`.
    pub fn members(&self, n: NodeId) -> Members<'_> {
        Members {
            f: self,
            start: n,
            cur: Some(n),
        }
    }
}

/// Iterator over the segments of one feature.
pub struct Members<'a> {
    f: &'a Features,
    start: NodeId,
    cur: Option<NodeId>,
}

impl Iterator for Members<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let c = self.cur?;
        let n = self.f.nodes[c as usize].next;
        self.cur = (n != self.start).then_some(n);
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_sums_counts_and_lists_members() {
        let mut f = Features::default();
        let a = f.add(0, 0, FeatureKind::City, 1);
        let b = f.add(1, 0, FeatureKind::City, 0);
        let c = f.add(2, 0, FeatureKind::City, 1);
        f.add_open(a, 2);
        f.add_open(b, 1);
        f.add_open(c, 3);
        f.add_followers(b, 1);
        f.union(a, b);
        f.union(c, b);
        assert_eq!(f.root(c), a);
        assert_eq!(f.open(c), 6);
        assert_eq!(f.arms(b), 2);
        assert_eq!(f.followers(a), 1);
        let mut m: Vec<_> = f.members(b).collect();
        m.sort();
        assert_eq!(m, vec![a, b, c]);
        // A second union of the same sets changes nothing.
        f.union(a, c);
        assert_eq!(f.members(a).count(), 3);
        assert_eq!(f.open(a), 6);
    }
}
