//! The interface every search uses to score wells.

/// Scores a well from its playable rows (below the bar, top first).
pub trait Evaluator: Send + Sync {
    /// Value of a well from its playable rows (top first); higher is better,
    /// in [-1, 1] for the network.
    fn evaluate(&self, rows: &[u16]) -> f32;

    /// Batch form; default loops over `evaluate`.
    fn evaluate_batch(&self, wells: &[&[u16]], out: &mut [f32]) {
        for (w, o) in wells.iter().zip(out) {
            *o = self.evaluate(w);
        }
    }

    fn name(&self) -> String;
}

/// Evaluators behind references and smart pointers are evaluators too.
macro_rules! forward_evaluator {
    ($($ptr:ty),*) => {$(
        impl<E: Evaluator + ?Sized> Evaluator for $ptr {
            fn evaluate(&self, rows: &[u16]) -> f32 {
                (**self).evaluate(rows)
            }
            fn evaluate_batch(&self, wells: &[&[u16]], out: &mut [f32]) {
                (**self).evaluate_batch(wells, out)
            }
            fn name(&self) -> String {
                (**self).name()
            }
        }
    )*};
}

forward_evaluator!(&E, Box<E>, std::sync::Arc<E>);
