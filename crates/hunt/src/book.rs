//! The book: a tree of positions on the lines a hunt has found, every
//! `stride` pieces, each position keeping its best three continuations.
//! A position is the path of moves from the empty well, so a search from it
//! meets the enemy with the game's own memory (loop rule included).
//!
//! Choosing where to restart is a bandit at every position on the way
//! down (UCB1, as in Squirrel's book learning): the arms are "restart
//! here" and the children; an arm's value is the best final lines reached
//! through it divided by the best of the whole book, its count the
//! searches that went through it. Arms never tried come first, so a new
//! position is searched from once before the descent passes it.

use hatetris_search::Move;
use serde::{Deserialize, Serialize};

/// Continuations kept per position.
pub const MAX_CHILDREN: usize = 3;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub parent: Option<u32>,
    /// Pieces placed from the empty well.
    pub depth: u32,
    /// The moves from the parent's position to this one (`Move::pack`).
    pub segment: Vec<u32>,
    pub children: Vec<u32>,
    /// Searches whose line went through this position (its UCB1 count as
    /// a child), counting the one that found it.
    pub visits: u32,
    /// Searches started here (the count of its "restart here" arm; it also
    /// picks the width).
    pub restarts: u32,
    /// Best final lines of any line found through this position.
    pub best: u32,
    /// Best final lines of the searches started here.
    pub restart_best: u32,
    /// Dropped for a better continuation; kept so that node ids stay valid.
    pub detached: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Book {
    pub stride: u32,
    pub nodes: Vec<Node>,
    pub best_lines: u32,
    /// The best line found, from the empty well (`Move::pack`).
    pub best_line: Vec<u32>,
}

/// Where the next search starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub node: u32,
    pub depth: u32,
    /// Searches already started here (index into the width schedule).
    pub restarts: u32,
    pub path: Vec<Move>,
}

impl Book {
    /// A book holding only the empty well.
    pub fn new(stride: u32) -> Book {
        let root = Node {
            parent: None,
            depth: 0,
            segment: Vec::new(),
            children: Vec::new(),
            visits: 0,
            restarts: 0,
            best: 0,
            restart_best: 0,
            detached: false,
        };
        Book { stride: stride.max(1), nodes: vec![root], best_lines: 0, best_line: Vec::new() }
    }

    /// The moves from the empty well to `node`.
    pub fn path(&self, node: u32) -> Vec<Move> {
        let mut chain = Vec::new();
        let mut n = Some(node);
        while let Some(i) = n {
            chain.push(i);
            n = self.nodes[i as usize].parent;
        }
        chain.iter().rev().flat_map(|&i| self.nodes[i as usize].segment.iter().map(|&m| Move::unpack(m))).collect()
    }

    /// UCB1 score of an arm: untried arms first, then mean value plus the
    /// exploration bonus.
    fn ucb(value: f64, count: u32, total: u32, explore: f64) -> f64 {
        if count == 0 {
            return f64::INFINITY;
        }
        value + explore * ((total.max(1) as f64).ln() / count as f64).sqrt()
    }

    /// Which positions still have a search to give, themselves or below:
    /// a position searched once at every width of the schedule (`widths`
    /// searches) is closed, since a search's line depends only on its
    /// start and width (the seed only breaks ties).
    fn open(&self, widths: u32) -> Vec<bool> {
        let mut open = vec![false; self.nodes.len()];
        // Children always come after their parent in `nodes`.
        for i in (0..self.nodes.len()).rev() {
            let n = &self.nodes[i];
            open[i] = !n.detached && (n.restarts < widths || n.children.iter().any(|&c| open[c as usize]));
        }
        open
    }

    /// Descends from the empty well by UCB1 (`explore`: the weight of the
    /// exploration term) to the position to search from next, among those
    /// searched fewer than `widths` times; `None` when every position has
    /// had all its searches. Ties go to "restart here", then to the
    /// earlier child.
    pub fn choose(&self, explore: f64, widths: u32) -> Option<Choice> {
        let open = self.open(widths);
        if !open[0] {
            return None;
        }
        let norm = self.best_lines.max(1) as f64;
        let mut at = 0u32;
        loop {
            let node = &self.nodes[at as usize];
            let total = node.restarts + node.children.iter().map(|&c| self.nodes[c as usize].visits).sum::<u32>();
            let mut pick = None;
            let mut best = f64::NEG_INFINITY;
            if node.restarts < widths {
                best = Self::ucb(node.restart_best as f64 / norm, node.restarts, total, explore);
            }
            for &c in node.children.iter().filter(|&&c| open[c as usize]) {
                let child = &self.nodes[c as usize];
                let score = Self::ucb(child.best as f64 / norm, child.visits, total, explore);
                if score > best {
                    best = score;
                    pick = Some(c);
                }
            }
            match pick {
                Some(c) => at = c,
                None => {
                    return Some(Choice { node: at, depth: node.depth, restarts: node.restarts, path: self.path(at) });
                }
            }
        }
    }

    /// Records a search started at `node` whose line (from the empty well;
    /// it begins with `node`'s path) ends with `lines`: backs the lines up
    /// to every position above, and adds the line's positions below `node`
    /// to the book where they are among the best three continuations.
    /// Returns the number of positions added.
    pub fn record(&mut self, node: u32, line: &[Move], lines: u32) -> usize {
        let mut n = Some(node);
        while let Some(i) = n {
            let a = &mut self.nodes[i as usize];
            a.visits += 1;
            a.best = a.best.max(lines);
            n = a.parent;
        }
        let start = &mut self.nodes[node as usize];
        start.restarts += 1;
        start.restart_best = start.restart_best.max(lines);
        if self.improved_by(lines) {
            self.best_lines = lines;
            self.best_line = line.iter().map(|m| m.pack()).collect();
        }
        // Positions strictly inside the line: a move was played from each,
        // so none is over.
        let mut at = node;
        let mut added = 0;
        let mut d = (self.nodes[node as usize].depth / self.stride + 1) * self.stride;
        while (d as usize) < line.len() {
            let from = self.nodes[at as usize].depth as usize;
            let segment: Vec<u32> = line[from..d as usize].iter().map(|m| m.pack()).collect();
            let same =
                self.nodes[at as usize].children.iter().copied().find(|&c| self.nodes[c as usize].segment == segment);
            if let Some(c) = same {
                let child = &mut self.nodes[c as usize];
                child.best = child.best.max(lines);
                at = c;
            } else {
                let children = &self.nodes[at as usize].children;
                if children.len() >= MAX_CHILDREN {
                    let (slot, worst) = children
                        .iter()
                        .enumerate()
                        .map(|(k, &c)| (k, c))
                        .min_by_key(|&(k, c)| (self.nodes[c as usize].best, std::cmp::Reverse(k)))
                        .unwrap();
                    if self.nodes[worst as usize].best >= lines {
                        break;
                    }
                    self.detach(worst);
                    self.nodes[at as usize].children.remove(slot);
                }
                let id = self.nodes.len() as u32;
                self.nodes.push(Node {
                    parent: Some(at),
                    depth: d,
                    segment,
                    children: Vec::new(),
                    visits: 1,
                    restarts: 0,
                    best: lines,
                    restart_best: 0,
                    detached: false,
                });
                self.nodes[at as usize].children.push(id);
                at = id;
                added += 1;
            }
            d += self.stride;
        }
        added
    }

    /// Whether a line of `lines` would be the book's new best (the first
    /// line always is).
    pub fn improved_by(&self, lines: u32) -> bool {
        lines > self.best_lines || self.best_line.is_empty()
    }

    fn detach(&mut self, node: u32) {
        let mut stack = vec![node];
        while let Some(i) = stack.pop() {
            let n = &mut self.nodes[i as usize];
            n.detached = true;
            stack.extend(n.children.iter().copied());
        }
    }

    /// Positions in the book (detached ones not counted).
    pub fn live_nodes(&self) -> usize {
        self.nodes.iter().filter(|n| !n.detached).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_game::Piece;

    /// Distinct made-up moves (the book never plays them).
    fn mv(k: u32) -> Move {
        Move { piece: Piece::ALL[(k % 7) as usize], x: (k % 10) as i8 - 1, y: (k / 10 % 20) as i8, o: (k % 4) as u8 }
    }

    fn line(prefix: &[Move], tail: std::ops::Range<u32>) -> Vec<Move> {
        prefix.iter().copied().chain(tail.map(mv)).collect()
    }

    #[test]
    fn untried_arms_come_first_then_the_best_value() {
        let mut book = Book::new(5);
        // The empty well has never been searched from.
        assert_eq!(book.choose(0.5, 9).unwrap().node, 0);
        let first = line(&[], 0..12);
        assert_eq!(book.record(0, &first, 10), 2); // positions at pieces 5 and 10
        assert_eq!(book.best_lines, 10);
        // Root: "here" tried once (value 1.0), child tried once (value 1.0):
        // a tie goes to "here"... but the child's own "here" is untried only
        // once we are there. With equal values and counts, here wins.
        assert_eq!(book.choose(0.5, 9).unwrap().node, 0);
        // A second search from the root found less: the child is now better.
        let second = line(&[], 100..112);
        book.record(0, &second, 6);
        let c = book.choose(0.5, 9).unwrap();
        assert_eq!(c.node, 1, "{c:?}");
        assert_eq!(c.depth, 5);
        assert_eq!(c.path, first[..5].to_vec());
        // Node 1 has never been searched from: it is chosen, and a search
        // from it that reaches 14 lines makes a new best through it.
        let third = line(&first[..5], 200..214);
        book.record(1, &third, 14);
        assert_eq!(book.best_lines, 14);
        assert_eq!(book.nodes[0].best, 14);
        assert_eq!(book.nodes[1].best, 14);
        assert_eq!(book.nodes[1].children.len(), 2);
        // Hand-computed UCB1 at the root (explore 0.5, 5 searches through
        // it): here = 10/14 + 0.5 sqrt(ln 5 / 2) = 1.162; child 1 = 14/14 +
        // 0.5 sqrt(ln 5 / 2) = 1.448; the other child = 6/14 + 0.5 sqrt(ln 5)
        // = 1.063. At node 1 (3 through it): here = 1 + 0.5 sqrt(ln 3) ties
        // its new 14-line child and wins the tie: a second search there.
        assert!((Book::ucb(10.0 / 14.0, 2, 5, 0.5) - 1.162).abs() < 1e-3);
        assert!((Book::ucb(1.0, 2, 5, 0.5) - 1.448).abs() < 1e-3);
        assert!((Book::ucb(6.0 / 14.0, 1, 5, 0.5) - 1.063).abs() < 1e-3);
        let c = book.choose(0.5, 9).unwrap();
        assert_eq!((c.node, c.restarts), (1, 1));
        // With a huge exploration weight, the least visited arm wins.
        assert!(Book::ucb(0.1, 1, 4, 100.0) > Book::ucb(1.0, 2, 4, 100.0));
    }

    #[test]
    fn a_position_searched_at_every_width_is_closed() {
        let mut book = Book::new(5);
        let first = line(&[], 0..7);
        book.record(0, &first, 3);
        // Two widths: the root has one more search to give, then its child.
        assert_eq!(book.choose(0.0, 2).unwrap().node, 0);
        book.record(0, &first, 3);
        assert_eq!(book.choose(0.0, 2).unwrap().node, 1);
        book.record(1, &first, 3);
        book.record(1, &first, 3);
        assert_eq!(book.choose(0.0, 2), None, "every position has had its two searches");
    }

    #[test]
    fn a_position_keeps_its_best_three_continuations() {
        let mut book = Book::new(4);
        book.record(0, &line(&[], 0..10), 5);
        for (k, lines) in [(1u32, 3u32), (2, 7), (3, 4)] {
            book.record(0, &line(&[], k * 100..k * 100 + 10), lines);
        }
        let kept: Vec<u32> = book.nodes[0].children.iter().map(|&c| book.nodes[c as usize].best).collect();
        assert_eq!(kept, vec![5, 7, 4], "the 3-line continuation gave way");
        // A worse one than all three is not added.
        let before = book.nodes.len();
        assert_eq!(book.record(0, &line(&[], 900..910), 2), 0);
        assert_eq!(book.nodes.len(), before);
        assert!(book.nodes.iter().filter(|n| n.detached).count() >= 1);
        // A line through an existing position shares it.
        let first = line(&[], 0..10);
        let n = book.record(0, &line(&first[..4], 50..60), 9);
        assert_eq!(n, 2, "pieces 8 and 12 are new, piece 4 is shared");
        assert_eq!(book.nodes[1].best, 9);
        assert_eq!(book.path(book.nodes.len() as u32 - 1).len(), 12);
    }
}
