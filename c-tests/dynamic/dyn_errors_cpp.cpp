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

    // A builder that could not get memory: every Write returns ENOMEM.
    ehd::EventBuilder small(16, 16);
    alloc_fail(1);
    {
        ehd::EventBuilder starved;
        CHECK_EQ_INT(ENOMEM, starved.Reset("Starved").AddValue("v", 1, event_field_format_default).Write(*set));
        ehd::EventBuilder copy(starved);
        CHECK_EQ_INT(ENOMEM, copy.Write(*set));
    }
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
    CHECK_EQ_INT(ENOMEM, copy.Write(*set)); // moved from: no builder left
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
        ehd::Provider longGroup("Good", std::string(300, 'g'));
        CHECK_EQ_INT(E2BIG, longGroup.Errno());
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
