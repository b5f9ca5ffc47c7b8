//! Calls inside the crate's expression macros, builder chains, field chains, `for` variables.
#[macro_use]
mod macros;
mod builder;
mod report;

pub struct Parser {
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Result<u8, ()> {
        Ok(self.pos as u8)
    }

    fn next(&mut self) -> Option<u8> {
        None
    }

    pub fn parse(&mut self) -> Result<u8, ()> {
        let first = tri!(self.peek());
        let _ = tri!(self.peek(),);
        quoted!(self.next());
        Ok(first)
    }
}
