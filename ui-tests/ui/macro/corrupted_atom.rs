use layout_typed::layout;

layout! {
    /// SM80_16x8x16_F32F16F16F32_TN, C fragment, with one stride changed (16 -> 12).
    pub const TV_C = cute ((4,8),(2,2)):((32,1),(12,8)), thread-value -> logical(16,8);
}

fn main() {}
