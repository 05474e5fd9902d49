/*
The EventHeader layer of the tracepoint API: providers (name + options) and
events (header, metadata, keyword), written as EventHeader events through the
tracepoint layer. This is what TraceLoggingProvider.h builds on.
All functions return 0 or an errno value; none aborts on bad input.
*/
