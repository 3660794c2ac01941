//! A move as the beam stores it: which piece the enemy gave and where it
//! locked, packed in 14 bits.

use hatetris_game::reference::Position;
use hatetris_game::Piece;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub piece: Piece,
    pub x: i8,
    pub y: i8,
    pub o: u8,
}

impl Move {
    pub fn pack(self) -> u32 {
        self.piece.index() as u32 | (self.o as u32) << 3 | ((self.x + 3) as u32) << 5 | (self.y as u32) << 9
    }

    pub fn unpack(v: u32) -> Move {
        Move {
            piece: Piece::from_index((v & 7) as usize),
            o: (v >> 3 & 3) as u8,
            x: (v >> 5 & 15) as i8 - 3,
            y: (v >> 9 & 31) as i8,
        }
    }

    pub fn position(self) -> Position {
        Position { x: self.x as i32, y: self.y as i32, o: self.o }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_every_field_range() {
        for piece in Piece::ALL {
            for o in 0..4 {
                for x in -3..=9 {
                    for y in 0..20 {
                        let m = Move { piece, x, y, o };
                        assert_eq!(Move::unpack(m.pack()), m);
                    }
                }
            }
        }
    }
}
