//! A Carcassonne rules engine.
#![deny(missing_docs)]

pub mod board;
pub mod catalogue;
pub mod geom;
