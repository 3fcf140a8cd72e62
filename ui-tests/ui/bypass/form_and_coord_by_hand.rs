// Forms and coordinates are sealed: a form of one's own cannot lie about its size, nor a
// coordinate about its offset.
use layout_typed::{Coord, Form};

#[derive(Clone, Copy)]
struct MyForm;
impl Form for MyForm {}

#[derive(Clone, Copy)]
struct MyCoord;
impl Coord<layout_typed::Dim<4, 1>> for MyCoord {}

fn main() {}
