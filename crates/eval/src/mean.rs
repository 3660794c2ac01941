//! The mean value of several evaluators, as one evaluator.
//!
//! Networks from different runs err differently and their mean ranks wells
//! better than any one of them (docs/experiments.md, distill-a). Searching
//! with the mean directly measures an ensemble before it is distilled into
//! one network (`hatetris label`), at the members' summed cost.

use crate::Evaluator;

pub struct Mean {
    members: Vec<Box<dyn Evaluator>>,
}

impl Mean {
    /// Panics if `members` is empty.
    pub fn new(members: Vec<Box<dyn Evaluator>>) -> Mean {
        assert!(!members.is_empty(), "a mean of no evaluators");
        Mean { members }
    }

    fn scale(&self) -> f32 {
        1.0 / self.members.len() as f32
    }
}

impl Evaluator for Mean {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        self.members.iter().map(|m| m.evaluate(rows)).sum::<f32>() * self.scale()
    }

    fn evaluate_batch(&self, wells: &[&[u16]], out: &mut [f32]) {
        let mut one = vec![0.0; out.len()];
        out.fill(0.0);
        for m in &self.members {
            m.evaluate_batch(wells, &mut one);
            out.iter_mut().zip(&one).for_each(|(o, v)| *o += v);
        }
        out.iter_mut().for_each(|o| *o *= self.scale());
    }

    // Each member keeps its own incremental path for the family.
    fn evaluate_family(
        &self,
        parent: Option<&[u16]>,
        children: &[&[u16]],
        derived: &[&[u16]],
        from: &[u32],
        child_values: &mut [f32],
        derived_values: &mut [f32],
    ) {
        let mut c = vec![0.0; child_values.len()];
        let mut d = vec![0.0; derived_values.len()];
        child_values.fill(0.0);
        derived_values.fill(0.0);
        for m in &self.members {
            m.evaluate_family(parent, children, derived, from, &mut c, &mut d);
            child_values.iter_mut().zip(&c).for_each(|(o, v)| *o += v);
            derived_values.iter_mut().zip(&d).for_each(|(o, v)| *o += v);
        }
        child_values.iter_mut().for_each(|o| *o *= self.scale());
        derived_values.iter_mut().for_each(|o| *o *= self.scale());
    }

    fn name(&self) -> String {
        let names: Vec<String> = self.members.iter().map(|m| m.name()).collect();
        format!("mean({})", names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Baseline, Network, QuantizedNetwork};

    #[test]
    fn the_mean_is_the_members_average_on_every_path() {
        let a = Network::random(8, 1);
        let b = Network::random(16, 2);
        let members: Vec<Box<dyn Evaluator>> =
            vec![Box::new(QuantizedNetwork::new(&a)), Box::new(QuantizedNetwork::new(&b)), Box::new(Baseline)];
        let plain: Vec<Box<dyn Evaluator>> =
            vec![Box::new(QuantizedNetwork::new(&a)), Box::new(QuantizedNetwork::new(&b)), Box::new(Baseline)];
        let mean = Mean::new(members);
        let parent: &[u16] = &[0, 0b1100000000, 0b0111111110];
        let children: Vec<&[u16]> = vec![&[0, 0b1100000011, 0b0111111110], &[0b1, 0b1100000001, 0b0111111111]];
        let derived: Vec<&[u16]> = vec![&[0, 0b1]];
        let expect = |w: &[u16]| plain.iter().map(|m| m.evaluate(w)).sum::<f32>() / 3.0;
        let (mut cv, mut dv) = (vec![0.0; 2], vec![0.0; 1]);
        mean.evaluate_family(Some(parent), &children, &derived, &[1], &mut cv, &mut dv);
        for (w, v) in children.iter().zip(&cv).chain(derived.iter().zip(&dv)) {
            assert!((expect(w) - v).abs() < 1e-5);
            assert!((mean.evaluate(w) - v).abs() < 1e-5);
        }
        let mut out = vec![0.0; 2];
        mean.evaluate_batch(&children, &mut out);
        assert!((out[0] - cv[0]).abs() < 1e-6 && (out[1] - cv[1]).abs() < 1e-6);
        assert!(mean.name().starts_with("mean("));
    }
}
