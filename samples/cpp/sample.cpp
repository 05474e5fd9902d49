// TraceLogging in C++: a provider defined here and used from a class, with
// TraceLoggingValue type deduction.
//
// Build (from the repository root, after cargo build):
//     c++ -std=c++17 -Iinclude samples/cpp/sample.cpp -Ltarget/debug
//         -leventheader_tracepoint -Wl,-rpath,$PWD/target/debug -o cpp_sample
// Run with TRACEPOINT_CAPTURE_FILE=/tmp/events.dat to capture the events to a file.
#include <eventheader/TraceLoggingProvider.h>
#include <cstdio>
#include <string>
#include <vector>

TRACELOGGING_DEFINE_PROVIDER(
    MyCppProvider,
    "MySample_Cpp",
    // {a2b7c3d0-8c9e-5f1a-4b6c-7d8e9f0a1b2c} (not used on Linux)
    (0xa2b7c3d0, 0x8c9e, 0x5f1a, 0x4b, 0x6c, 0x7d, 0x8e, 0x9f, 0x0a, 0x1b, 0x2c));

namespace {

class Registration
{
public:
    Registration() noexcept : result(TraceLoggingRegister(MyCppProvider)) {}
    ~Registration() { TraceLoggingUnregister(MyCppProvider); }
    Registration(Registration const&) = delete;
    Registration& operator=(Registration const&) = delete;
    int const result;
};

class Inventory
{
public:
    void Add(std::string const& name, unsigned count)
    {
        items.push_back(name);
        TraceLoggingWrite(MyCppProvider, "ItemAdded",
            TraceLoggingLevel(event_level_information),
            TraceLoggingValue(name.c_str(), "name"), // char const* -> String
            TraceLoggingValue(count),                // unsigned -> UInt32, named "count"
            TraceLoggingValue(items.size() == 1, "first")); // bool -> Boolean
    }

    void Report() const
    {
        std::vector<uint16_t> lengths;
        for (auto const& item : items) {
            lengths.push_back(static_cast<uint16_t>(item.size()));
        }
        TraceLoggingWrite(MyCppProvider, "Report",
            TraceLoggingKeyword(0x2),
            TraceLoggingUInt16Array(lengths.data(), static_cast<uint16_t>(lengths.size()), "lengths"),
            TraceLoggingValue(u"done", "status"), // char16_t const* -> String16
            TraceLoggingValue(2.5, "score"));     // double -> Float64
    }

private:
    std::vector<std::string> items;
};

} // namespace

int main()
{
    Registration registration;
    Inventory inventory;
    inventory.Add("apple", 3);
    inventory.Add("pear", 12);
    inventory.Report();
    std::printf("%s: TraceLoggingRegister returned %d\n", TraceLoggingProviderName(MyCppProvider), registration.result);
    return 0;
}
