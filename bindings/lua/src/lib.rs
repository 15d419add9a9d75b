//! # tactica-lua
//!
//! Tactica's script API bound into Lua 5.4 (mlua, vendored). Not yet built.
