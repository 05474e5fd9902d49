/*
State blocks of the tracepoint layer. A tracepoint_state is usually a static
variable per tracepoint and a tracepoint_provider_state a static variable per
provider; both are managed by the library after initialization.
*/
