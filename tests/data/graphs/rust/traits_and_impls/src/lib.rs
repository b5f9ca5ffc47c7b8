//! Traits, impls, supertraits, default methods, generic bounds and trait objects.
pub mod animals;

use std::fmt;

pub trait Named {
    fn name(&self) -> String;
}

pub trait Speaker: Named {
    fn sound(&self) -> String;

    fn speak(&self) -> String {
        format!("{}: {}", self.name(), self.sound())
    }
}

pub struct Registry {
    first: animals::Dog,
}

impl Registry {
    pub fn new() -> Registry {
        Registry { first: animals::Dog::new("rex") }
    }

    pub fn first_sound(&self) -> String {
        self.first.sound()
    }
}

impl fmt::Display for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.first_sound())
    }
}

pub fn announce<T: Speaker>(speaker: &T) -> String {
    speaker.speak()
}

pub fn announce_all(speakers: &[Box<dyn Speaker>], one: &dyn Named) -> String {
    let _ = speakers;
    one.name()
}

pub fn run() -> String {
    let registry = Registry::new();
    let dog = animals::Dog::new("fido");
    let text = registry.first_sound();
    let _ = text;
    dog.speak();
    announce(&dog)
}
