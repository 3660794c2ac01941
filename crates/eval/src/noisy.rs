//! An evaluator with seeded noise: the inner value plus `amount` times a
//! number in [-1, 1) fixed by the well and a salt.
//!
//! The cycle searches its exploratory openings with it: the best line of a
//! beam over noisy values is a plausible game that differs from the
//! network's own, and another salt gives another one. The noise is a
//! function of the well, not of the call, so a search with it is as
//! reproducible as without.

use crate::Evaluator;

pub struct Noisy<E> {
    inner: E,
    amount: f32,
    salt: u64,
}

impl<E: Evaluator> Noisy<E> {
    pub fn new(inner: E, amount: f32, salt: u64) -> Noisy<E> {
        Noisy { inner, amount, salt }
    }

    /// The noise of one well: a mix of its rows and the salt (the rows are
    /// the whole well, so equal wells get equal noise).
    fn noise(&self, rows: &[u16]) -> f32 {
        let mut h = self.salt ^ 0x9E37_79B9_7F4A_7C15;
        for &r in rows {
            h = (h ^ r as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
        h = (h ^ rows.len() as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 29;
        // The top 24 bits as a uniform number in [-1, 1).
        (h >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

impl<E: Evaluator> Evaluator for Noisy<E> {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        self.inner.evaluate(rows) + self.amount * self.noise(rows)
    }

    fn evaluate_batch(&self, wells: &[&[u16]], out: &mut [f32]) {
        self.inner.evaluate_batch(wells, out);
        for (w, o) in wells.iter().zip(out) {
            *o += self.amount * self.noise(w);
        }
    }

    fn name(&self) -> String {
        format!("noisy({}, {}, {})", self.inner.name(), self.amount, self.salt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Baseline;

    #[test]
    fn noise_is_bounded_fixed_by_the_well_and_salted() {
        let plain = Baseline;
        let a = Noisy::new(Baseline, 0.5, 1);
        let b = Noisy::new(Baseline, 0.5, 2);
        let wells: Vec<Vec<u16>> = (0..200u16).map(|i| vec![0, i & 0x3FF, (i * 7) & 0x3FF, 0x1FF]).collect();
        let refs: Vec<&[u16]> = wells.iter().map(|w| w.as_slice()).collect();
        let mut batch = vec![0.0; refs.len()];
        a.evaluate_batch(&refs, &mut batch);
        let mut differ = 0;
        let mut sum = 0.0;
        for (w, &v) in refs.iter().zip(&batch) {
            let d = a.evaluate(w) - plain.evaluate(w);
            assert!((-0.5..0.5).contains(&d), "{d}");
            assert_eq!(v, a.evaluate(w), "batch and single agree");
            assert_eq!(a.evaluate(w), a.evaluate(w), "fixed by the well");
            if a.evaluate(w) != b.evaluate(w) {
                differ += 1;
            }
            sum += d;
        }
        assert!(differ > 190, "another salt, other noise: {differ}");
        assert!((sum / 200.0).abs() < 0.1, "centred: {}", sum / 200.0);
    }
}
