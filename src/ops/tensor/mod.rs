//! The tensor's script surface: its methods and `torch` functions, by concern (views,
//! mutation, arithmetic, pointwise functions, reductions, metadata, indexing), and the
//! autograd surface with the recording of ops the core does not record itself.

pub mod array_builders;
pub mod autograd;
pub mod binary_math;
pub mod chained_products;
pub mod composite;
pub mod counting;
pub mod distances;
pub mod element_functions;
pub mod float_values;
pub mod fused_pointwise;
pub mod fused_products;
pub mod gamma_functions;
pub mod hooks;
pub mod in_place_twins;
pub mod in_place_views;
pub mod in_place_writes;
pub mod index_put;
pub mod indexing;
pub mod integration;
pub mod join;
pub mod legacy_methods;
pub mod math;
pub mod meta;
pub mod more_factories;
pub mod mutation;
pub mod new;
pub mod norms;
pub mod numeric_gradient;
pub mod order_stats;
pub mod pointwise;
pub mod reduce;
pub mod scatter;
pub mod search;
pub mod segments;
pub mod selection;
pub mod softmax;
pub mod stacking;
pub mod statistics;
pub mod tensor_queries;
pub mod unary;
pub mod view_copies;
pub mod view_scatter;
pub mod views;
pub mod windows;
