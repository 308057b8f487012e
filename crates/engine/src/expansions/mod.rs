//! Expansions, one module each; each reads top to bottom like its rules page.
//! The turn loop in `game.rs` calls into a module only when its expansion is
//! in play, so an expansion that is off costs one `Option` test.

pub mod gingerbread;
pub mod halfsies;
pub mod map_chips;
pub mod plague;
pub mod registry;
pub mod river;

pub use registry::{ExpansionId, Expansions, Family};
