// `tri!` wraps an expression; `quoted!` only names its tokens.
macro_rules! tri {
    ($e:expr $(,)?) => {
        match $e {
            Ok(val) => val,
            Err(err) => return Err(err),
        }
    };
}

macro_rules! quoted {
    ($e:expr) => {
        stringify!($e)
    };
}
