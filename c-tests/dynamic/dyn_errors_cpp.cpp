/*
The C++ API's error contract (EventHeaderDynamic.h), the returns the
reference documents: ERANGE for an oversize event, ENOMEM when the builder
could not get memory, EBADF for a disabled or placeholder set; plus
RegisterSet / Provider under out of memory (alloc_hook.h), sets outliving
their provider, Unregister, copies and moves of builders.

Run in capture mode. Only events named Ok... may reach the capture; prints
"ok-events N".
*/
#include <eventheader/EventHeaderDynamic.h>

#include <errno.h>
#include <stdio.h>
#include <string>
#include <utility>

#include "../check.h"
#include "alloc_hook.h"

static unsigned g_ok_events;

static void write_ok(ehd::EventBuilder const& eb, ehd::EventSet const& set)
{
    CHECK_EQ_INT(0, eb.Write(set));
    g_ok_events += 1;
}

int main()
{
    ehd::Provider provider("DynErrorsCpp");
    CHECK_EQ_INT(0, provider.Errno());
    auto const set = provider.RegisterSet(event_level_verbose, 1);
    CHECK(set && set->Enabled() && set->Errno() == 0);

    // The documented returns.
    ehd::EventBuilder eb;
    std::string const big(70000, 'x');
    eb.Reset("Oversize").AddBinary<char>("b", big, event_field_format_default);
    CHECK_EQ_INT(ERANGE, eb.Write(*set));
    eb.Reset("OversizeString").AddString<char>("s", std::string_view(big).substr(0, 65466), event_field_format_default);
    CHECK_EQ_INT(ERANGE, eb.Write(*set));
    eb.Reset("OversizeRange");
    std::vector<uint8_t> const many(66000, 1);
    eb.AddValueRange("v", many.begin(), many.end(), event_field_format_default);
    CHECK_EQ_INT(ERANGE, eb.Write(*set));

    ehd::EventSet placeholder;
    CHECK(!placeholder.Enabled());
    CHECK_EQ_INT(EINVAL, placeholder.Errno());
    eb.Reset("NeverWritten");
    CHECK_EQ_INT(EBADF, eb.Write(placeholder));
    auto const off = provider.CreateUnregistered(event_level_information, 0x10);
    CHECK(off && !off->Enabled() && off->Errno() == 0);
    CHECK_EQ_INT(EBADF, eb.Write(*off));
    CHECK(provider.CreateUnregistered(event_level_information, 0x10, true) == off);
    CHECK(!ehd::Enabled(std::shared_ptr<ehd::EventSet const>()));
    CHECK(!ehd::Enabled(static_cast<ehd::EventSet const*>(nullptr)));

    // Without memory: a builder holds a typical event inside itself, so
    // it needs none for one (nor to copy one); growing past that is ENOMEM.
    ehd::EventBuilder small(16, 16);
    alloc_fail(1);
    unsigned long const calls = alloc_calls();
    {
        ehd::EventBuilder inlineOnly;
        inlineOnly.Reset("OkWithoutMemory").AddValue("v", 1, event_field_format_default);
        write_ok(inlineOnly, *set);
        ehd::EventBuilder copy(inlineOnly);
        write_ok(copy, *set);
        CHECK_EQ_INT(ENOMEM, inlineOnly.Reset("Starved")
            .AddBinary<char>("b", std::string_view(big).substr(0, 5000), event_field_format_default)
            .Write(*set));
        // Asked for more than it holds inline: it works within what it has.
        ehd::EventBuilder wanting(4096, 4096);
        wanting.Reset("OkWithoutItsCapacity").AddValue("v", 2, event_field_format_default);
        write_ok(wanting, *set);
        CHECK_EQ_INT(ENOMEM, wanting.Reset("StarvedToo")
            .AddBinary<char>("b", std::string_view(big).substr(0, 5000), event_field_format_default)
            .Write(*set));
    }
    CHECK(alloc_calls() - calls == 3); // the two growths and the capacity asked for
    // Growth that fails: ENOMEM.
    small.Reset("GrowthFails");
    small.AddBinary<char>("b", std::string_view(big).substr(0, 5000), event_field_format_default);
    CHECK_EQ_INT(ENOMEM, small.Write(*set));
    // RegisterSet and Provider under out of memory.
    CHECK(provider.RegisterSet(event_level_warning, 0x20) == nullptr);
    CHECK(provider.FindSet(event_level_warning, 0x20) == nullptr);
    {
        ehd::Provider starvedProvider("DynErrorsCppStarved");
        CHECK_EQ_INT(ENOMEM, starvedProvider.Errno());
        CHECK(starvedProvider.Name().empty());
        CHECK(starvedProvider.RegisterSet(event_level_verbose, 1) == nullptr);
    }
    alloc_fail(0);
    auto const later = provider.RegisterSet(event_level_warning, 0x20);
    CHECK(later && later->Errno() == 0 && later->Enabled());

    // Recovery after ENOMEM.
    small.Reset("OkAfterNoMemory").AddBinary<char>("b", std::string_view(big).substr(0, 5000), event_field_format_default);
    write_ok(small, *set);
    eb.Reset("OkAfterNoMemory").AddBinary<char>("b", std::string_view(big).substr(0, 5000), event_field_format_default);
    write_ok(eb, *set);

    // Copies and moves keep the event.
    ehd::EventBuilder copy(eb);
    write_ok(copy, *set);
    ehd::EventBuilder moved(std::move(copy));
    write_ok(moved, *set);
    CHECK_EQ_INT(EINVAL, copy.Write(*set)); // moved from: as if never Reset
    copy = moved;
    write_ok(copy, *set);
    copy.Reset("OkCopyAssignedThenReset");
    write_ok(copy, *set);
    write_ok(moved, *set); // the source kept its event

    // Precondition violations that the reference asserts: EINVAL here.
    size_t bookmark;
    eb.Reset("Bad").AddStruct("s", 0, 0, &bookmark);
    CHECK(bookmark == static_cast<size_t>(-1));
    CHECK_EQ_INT(EINVAL, eb.Write(*set));
    eb.Reset("Bad").AddValue("v", 1, event_field_format_default);
    CHECK_EQ_INT(EINVAL, eb.Write(*set, nullptr, "0123456789abcdef"));
    // Names given as C strings (ehd::FieldName measures them once): a NULL
    // one is EINVAL, as a NULL name with EHD_NTS in the C API.
    char const* const nullName = nullptr;
    eb.Reset("Bad").AddValue(nullName, 1, event_field_format_default);
    CHECK_EQ_INT(EINVAL, eb.Write(*set));
    eb.Reset(nullName);
    CHECK_EQ_INT(EINVAL, eb.Write(*set));
    // A name from a std::string, a std::string_view and a char array.
    std::string const stringName("s");
    char arrayName[] = "a";
    eb.Reset(std::string("OkNames"))
        .AddValue(stringName, 1, event_field_format_default)
        .AddValue(std::string_view("v"), 2, event_field_format_default)
        .AddValue(arrayName, 3, event_field_format_default);
    write_ok(eb, *set);
    {
        ehd::EventBuilder fresh;
        CHECK_EQ_INT(EINVAL, fresh.Write(*set)); // never Reset (the reference: ENOMEM)
    }
    {
        ehd::Provider bad("Bad Name");
        CHECK_EQ_INT(EINVAL, bad.Errno());
        auto const badSet = bad.RegisterSet(event_level_verbose, 1);
        CHECK(badSet && badSet->Errno() == EINVAL && !badSet->Enabled());
        ehd::Provider badGroup("Good", "Bad_Group");
        CHECK_EQ_INT(EINVAL, badGroup.Errno());
    }

    // Long names are cut as the reference's header cuts them: the provider
    // name to 233 characters, the group to what fits after it.
    {
        ehd::Provider longGroup("OkLong", std::string(300, 'g'));
        CHECK_EQ_INT(0, longGroup.Errno());
        CHECK(longGroup.Name() == "OkLong");
        CHECK(longGroup.Options() == "G" + std::string(233 - 6, 'g'));
        std::string const name234(234, 'N');
        ehd::Provider longName(name234, "grp");
        CHECK_EQ_INT(0, longName.Errno());
        CHECK(longName.Name() == name234.substr(0, 233));
        CHECK(longName.Options().empty());
        auto const longSet = longName.RegisterSet(event_level_verbose, 0x123456789abcdef0);
        CHECK(longSet && longSet->Errno() == 0 && longSet->Enabled());
        eb.Reset("OkLongName");
        write_ok(eb, *longSet);
        ehd::Provider exact(name234.substr(0, 233));
        CHECK(exact.Name() == name234.substr(0, 233));
    }

    // Sets outlive Unregister and the provider; FindSet forgets them.
    std::shared_ptr<ehd::EventSet const> survivor;
    {
        ehd::Provider shortLived("DynErrorsCppShort", "grp");
        CHECK(shortLived.Options() == "Ggrp");
        survivor = shortLived.RegisterSet(event_level_verbose, 3);
        CHECK(survivor && survivor->Enabled());
        eb.Reset("OkShortLived");
        write_ok(eb, *survivor);
        shortLived.Unregister();
        CHECK(!survivor->Enabled());
        CHECK(shortLived.FindSet(event_level_verbose, 3) == nullptr);
        eb.Reset("AfterUnregister");
        CHECK_EQ_INT(EBADF, eb.Write(*survivor));
        auto const again = shortLived.RegisterSet(event_level_verbose, 3);
        CHECK(again && again != survivor && !again->Enabled());
    }
    CHECK(!survivor->Enabled());
    CHECK_EQ_INT(EBADF, eb.Write(*survivor));
    survivor.reset();

    printf("ok-events %u\n", g_ok_events);
    return 0;
}
