//! Bastide's rules engine for Carcassonne: pure, deterministic from a seed,
//! with tiles as data.
//!
//! Set up a [`Game`] from a [`GameConfig`], ask it for [`Game::legal_actions`]
//! and change it only with [`Game::try_apply`]. Records ([`record`]) replay a
//! game exactly.

#![warn(missing_docs)]

pub mod action;
pub mod board;
pub mod catalog;
pub mod config;
pub mod deck;
pub mod expansions;
pub mod features;
pub mod game;
pub mod geometry;
pub mod limits;
pub mod map;
pub mod openspiel;
pub mod record;
pub mod rng;
pub mod scoring;
pub mod sim;
pub mod state;

pub use catalog::{Catalog, FeatureKind, TileIdx};
pub use config::{ConfigError, GameConfig};
pub use game::{Action, Figure, Game, IllegalAction, Phase};
pub use geometry::{Corner, Place, Pos, Rotation, Side};
