//! An evaluator read through a mirror: the value of a well is the inner
//! evaluator's value of its mirror image (columns reversed).
//!
//! The rules are nearly symmetric (S and Z, J and L swap; only the enemy's
//! tie order and the spawn column are not), so a network's value of a well
//! and of its mirror image are two readings of one position whose errors
//! differ. `mean=X,mirror:X` averages them: an ensemble of two for the price
//! of one network's training.

use crate::Evaluator;
use hatetris_game::well::WIDTH;

/// A row with its columns reversed.
#[inline]
pub fn mirror_row(row: u16) -> u16 {
    row.reverse_bits() >> (16 - WIDTH)
}

pub struct Mirror {
    inner: Box<dyn Evaluator>,
}

impl Mirror {
    pub fn new(inner: Box<dyn Evaluator>) -> Mirror {
        Mirror { inner }
    }
}

/// The mirror images of `wells`, in one buffer, and their bounds.
fn mirrored(wells: &[&[u16]]) -> (Vec<u16>, Vec<usize>) {
    let mut rows = Vec::with_capacity(wells.iter().map(|w| w.len()).sum());
    let mut ends = Vec::with_capacity(wells.len());
    for w in wells {
        rows.extend(w.iter().map(|&r| mirror_row(r)));
        ends.push(rows.len());
    }
    (rows, ends)
}

fn slices<'a>(rows: &'a [u16], ends: &[usize]) -> Vec<&'a [u16]> {
    let mut start = 0;
    ends.iter()
        .map(|&end| {
            let s = &rows[start..end];
            start = end;
            s
        })
        .collect()
}

impl Evaluator for Mirror {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        let m: Vec<u16> = rows.iter().map(|&r| mirror_row(r)).collect();
        self.inner.evaluate(&m)
    }

    fn evaluate_batch(&self, wells: &[&[u16]], out: &mut [f32]) {
        let (rows, ends) = mirrored(wells);
        self.inner.evaluate_batch(&slices(&rows, &ends), out);
    }

    // The mirror of a placement is a placement, so the inner evaluator's
    // incremental path holds for the mirrored family.
    fn evaluate_family(
        &self,
        parent: Option<&[u16]>,
        children: &[&[u16]],
        derived: &[&[u16]],
        from: &[u32],
        child_values: &mut [f32],
        derived_values: &mut [f32],
    ) {
        let parent: Option<Vec<u16>> = parent.map(|p| p.iter().map(|&r| mirror_row(r)).collect());
        let (c_rows, c_ends) = mirrored(children);
        let (d_rows, d_ends) = mirrored(derived);
        self.inner.evaluate_family(
            parent.as_deref(),
            &slices(&c_rows, &c_ends),
            &slices(&d_rows, &d_ends),
            from,
            child_values,
            derived_values,
        );
    }

    fn name(&self) -> String {
        format!("mirror({})", self.inner.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Network, QuantizedNetwork};

    #[test]
    fn mirror_reverses_columns_and_is_its_own_inverse() {
        assert_eq!(mirror_row(0b00_0000_0001), 0b10_0000_0000);
        assert_eq!(mirror_row(0b00_0000_0110), 0b01_1000_0000);
        for r in 0..1u16 << WIDTH {
            assert_eq!(mirror_row(mirror_row(r)), r);
        }
    }

    #[test]
    fn every_path_is_the_inner_value_of_the_mirror_image() {
        let net = Network::random(8, 3);
        let plain = QuantizedNetwork::new(&net);
        let mirror = Mirror::new(Box::new(QuantizedNetwork::new(&net)));
        let parent: Vec<u16> = vec![0, 0, 0b1000000000, 0b1100000001, 0b1110110111];
        let children: Vec<Vec<u16>> = vec![
            vec![0, 0, 0b1000000011, 0b1100000011, 0b1110110111],
            vec![0, 0b1000000000, 0b1100000000, 0b1100000001, 0b1110110111],
        ];
        let derived: Vec<Vec<u16>> = vec![vec![0, 0, 0, 0b1000000011, 0b1100000011]];
        let flip = |w: &Vec<u16>| w.iter().map(|&r| mirror_row(r)).collect::<Vec<u16>>();
        let c: Vec<&[u16]> = children.iter().map(|w| w.as_slice()).collect();
        let d: Vec<&[u16]> = derived.iter().map(|w| w.as_slice()).collect();
        let (mut cv, mut dv) = (vec![0.0; 2], vec![0.0; 1]);
        mirror.evaluate_family(Some(&parent), &c, &d, &[0], &mut cv, &mut dv);
        let mut batch = vec![0.0; 2];
        mirror.evaluate_batch(&c, &mut batch);
        for (i, w) in children.iter().enumerate() {
            let want = plain.evaluate(&flip(w));
            assert_eq!(mirror.evaluate(w), want);
            assert_eq!(batch[i], want);
            assert!((cv[i] - want).abs() < 1e-6, "{} {}", cv[i], want);
        }
        assert!((dv[0] - plain.evaluate(&flip(&derived[0]))).abs() < 1e-6);
    }
}
