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

    /// Values of a family of wells: `children`, each `parent` with one
    /// placement (`None`: no parent known), and `derived` wells, well `i`
    /// made from child `from[i]` by a placement and a clear (a beam entry's
    /// children and the wells their S/Z clears reach). The values are
    /// exactly `evaluate_batch`'s; an evaluator may reuse a well's work for
    /// the wells made from it (the default does not).
    fn evaluate_family(
        &self,
        parent: Option<&[u16]>,
        children: &[&[u16]],
        derived: &[&[u16]],
        from: &[u32],
        child_values: &mut [f32],
        derived_values: &mut [f32],
    ) {
        let _ = (parent, from);
        self.evaluate_batch(children, child_values);
        self.evaluate_batch(derived, derived_values);
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
            fn evaluate_family(
                &self,
                parent: Option<&[u16]>,
                children: &[&[u16]],
                derived: &[&[u16]],
                from: &[u32],
                child_values: &mut [f32],
                derived_values: &mut [f32],
            ) {
                (**self).evaluate_family(parent, children, derived, from, child_values, derived_values)
            }
            fn name(&self) -> String {
                (**self).name()
            }
        }
    )*};
}

forward_evaluator!(&E, Box<E>, std::sync::Arc<E>);
