//! Research experiments and hand tools, kept apart from the product crates:
//! each is an example of this crate (`research/examples/`); see
//! `research/README.md` for what each does and how to run it.
