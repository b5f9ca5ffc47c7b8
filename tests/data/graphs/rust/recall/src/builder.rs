// A builder whose methods return `&mut Self` and `Self`, chained ten calls deep.
pub struct Builder {
    n: u32,
}

impl Builder {
    pub fn new() -> Builder {
        Builder { n: 0 }
    }
    pub fn a(&mut self) -> &mut Self {
        self
    }
    pub fn b(&mut self) -> &mut Self {
        self
    }
    pub fn c(&mut self) -> &mut Builder {
        self
    }
    pub fn d(self) -> Self {
        self
    }
    pub fn build(&self) -> u32 {
        self.n
    }
    pub fn finish(&self) -> u32 {
        self.n
    }
}

pub fn by_mut_ref() -> u32 {
    let mut b = Builder::new();
    b.a().b().c().a().b().c().a().b().c().build()
}

pub fn by_value() -> u32 {
    Builder::new().d().d().d().d().d().d().d().d().d().finish()
}
