//! Replaying a record: the record is the vocabulary (it names actions and
//! knows no rule), the game is the rules; this view joins the two, so that
//! `record.rs` imports nothing above the vocabulary.

use crate::game::Game;
use crate::record::{ActionError, Record, RecordError};

impl Record {
    /// Replays every action.
    pub fn replay(&self) -> Result<Game, RecordError> {
        self.replay_to(self.actions.len())
    }

    /// Replays the first `n` actions.
    pub fn replay_to(&self, n: usize) -> Result<Game, RecordError> {
        let mut game = Game::new(self.config.clone())?;
        for (index, a) in self.actions.iter().take(n).enumerate() {
            let written =
                || crate::limits::cut_message(&serde_json::to_string(a).unwrap_or_default());
            let action = a.to_action(game.catalog()).map_err(|e| match e {
                ActionError::Malformed(message) => RecordError::BadAction { index, message },
                ActionError::Illegal(error) => RecordError::Illegal {
                    index,
                    action: written(),
                    error,
                },
            })?;
            game.try_apply(&action)
                .map_err(|error| RecordError::Illegal {
                    index,
                    action: written(),
                    error,
                })?;
            if let Some(message) = crate::expansions::misfixed(&game) {
                return Err(RecordError::Misfixed { index, message });
            }
        }
        Ok(game)
    }
}
