//! Bastide's rules engine for Carcassonne: pure, deterministic from a seed,
//! with tiles as data.
//!
//! Set up a [`Game`] from a [`GameConfig`], ask it for [`Game::legal_actions`]
//! and change it only with [`Game::try_apply`]. Records ([`record`]) replay a
//! game exactly.

#![warn(missing_docs)]

// The rules' own modules are private: what other crates may use is the
// list re-exported below, so the inside can change (as the speed work
// does) without breaking them. Records, the OpenSpiel view, the limits on
// input, the seeded generator and each expansion's public types keep
// their modules as namespaces.
mod action;
mod board;
mod catalog;
mod codec;
mod config;
mod deck;
pub mod expansions;
mod feature;
mod features;
mod game;
mod geometry;
pub mod limits;
mod map;
pub mod openspiel;
mod options;
pub mod record;
mod replay;
pub mod rng;
mod scoring;
mod seat;
mod sim;
mod state;
mod view;

pub use action::{Action, FeatureAt, Figure, Phase, TileAt};
pub use board::{Board, Piece, PlacementError};
pub use catalog::{
    Catalog, CatalogError, FeatureDef, FeatureKind, Oriented, Shape, SideProfile, Tag, TagSet,
    TileDef, TileIdx, TileSet, BUILTIN_FILES, NO_FEATURE,
};
pub use config::{ConfigError, GameConfig, PLAYER_COLOURS};
pub use deck::DECK_STREAM;
pub use feature::{FeatureRef, FeatureView};
pub use game::{Follower, Game, IllegalAction, PlayerState};
pub use geometry::{Corner, Place, Pos, Rotation, Side, COORD_LIMIT, PLACE_COUNT};
pub use map::{MapBounds, MapDef, BUILTIN_MAPS};
pub use options::{Options, KNOWN_OPTIONS};
pub use scoring::{Event, Goods, Reason};
pub use seat::Seat;
pub use sim::{play_random, play_random_with};
pub use state::{EventJson, ExpansionsJson, FollowerJson, PieceJson, Seen, StateJson, Viewer};
