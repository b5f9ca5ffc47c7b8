//! macro_rules! definitions are entities named `name!`; invocations call them.
#[macro_use]
mod macros;
mod user;

macro_rules! local {
    () => {
        fn generated_not_an_entity() {}
    };
}

local!();

pub fn both() -> u32 {
    user::run() + square!(3)
}
