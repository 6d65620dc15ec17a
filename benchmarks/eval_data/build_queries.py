"""Build ``queries.jsonl`` from the query list below.

Each query names its answer spans by text, not by offset: a span is either one
exact excerpt (which must occur exactly once in the file) or a pair
``(first words, last words)`` covering everything from the first to the second.
The script finds the offsets in the file's text (read as sectionrag's parser
reads .txt/.md files: UTF-8, newlines normalised to ``\\n``) and writes one
JSON line per query::

    {"id": ..., "query": ..., "kind": "question"|"keywords", "doc_type": ...,
     "references": [{"source": FILE, "start": S, "end": E, "answer": TEXT}]}

``answer`` is ``text[start:end]``, stored so anyone can check the spans.
Run from anywhere: ``python benchmarks/eval_data/build_queries.py``.
"""

# The query table quotes exact excerpts of the documents; keep them on one line each.
# ruff: noqa: E501

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

Span = str | tuple[str, str]

REPORT = "transit_annual_report_2024.md"
MANUAL = "sqlite_manual.md"
TRANSCRIPT = "sotu_2014_transcript.txt"
ENCYCLOPEDIA = "jargon_file_entries.md"

DOC_TYPES = {REPORT: "report", MANUAL: "manual", TRANSCRIPT: "transcript", ENCYCLOPEDIA: "encyclopedia"}

# (source, query, [spans])
QUERIES: list[tuple[str, str, list[Span]]] = [
    # --- report: a transit authority's annual performance report (written for this set) ---
    (
        REPORT,
        "How many trips did riders take in 2024 altogether?",
        [
            ("riders took 31.8 million trips", "we carried in 2019."),
            "Total unlinked passenger trips reached 31.8 million.",
        ],
    ),
    (
        REPORT,
        "Did routes that got more frequent service gain more riders than the others?",
        [
            (
                "The seven corridors that now run every ten minutes",
                "kept their old schedules gained 3 percent.",
            ),
        ],
    ),
    (
        REPORT,
        "Why were buses cancelled at the beginning of the year?",
        [
            ("A shortage of bus operators in the first quarter", "slipped by five months."),
        ],
    ),
    (
        REPORT,
        "light rail ridership growth Harbor Street reopening",
        [
            ("Light rail grew fastest at 12.1 percent", "after its platform reconstruction."),
        ],
    ),
    (
        REPORT,
        "Is travel on Saturdays and Sundays coming back faster than commuting?",
        [
            (
                "Weekend ridership grew faster than weekday ridership",
                "recovered more fully than commuting to offices.",
            ),
        ],
    ),
    (
        REPORT,
        "What is the most a rider paying per trip can be charged in a month?",
        [
            ("A rider who pays as they go is never charged more", "the price of a day pass ($5)."),
        ],
    ),
    (REPORT, "Do young kids need a ticket?", ["Children under 12 ride free."]),
    (
        REPORT,
        "Why did fare income come in under budget?",
        [
            ("Fare revenue was $38.4 million, 6.2 percent higher", "reached the cap in its first months."),
        ],
    ),
    (
        REPORT,
        "definition of on time for a bus departure",
        [
            ("A bus is counted as on time when it departs", "no more than five minutes late."),
        ],
    ),
    (
        REPORT,
        "bus on-time performance 2024 versus target",
        [
            "Systemwide bus on-time performance was 81.3 percent, against a target of 85 percent.",
        ],
    ),
    (
        REPORT,
        "Which routes got faster after traffic lights started favouring buses?",
        [
            ("Three corridors improved the most after transit signal priority", "from 80 to 85 percent."),
        ],
    ),
    (
        REPORT,
        "What did the agency do to recruit and keep more drivers?",
        [
            ("Training classes that had been limited to twelve trainees", "half after one year of service."),
        ],
    ),
    (
        REPORT,
        "How many bus operators were on staff by September?",
        [
            ("By September the Authority employed 671 operators", "their lowest level since 2019."),
        ],
    ),
    (
        REPORT,
        "What happened when the lift at Civic Center was out of service?",
        [
            (
                "The longest outage, at Civic Center station",
                "between Civic Center and Harbor Street every fifteen minutes.",
            ),
        ],
    ),
    (
        REPORT,
        "elevator escalator availability percent",
        [
            ("Elevator availability averaged 97.2 percent", "escalator availability was 94.8 percent."),
        ],
    ),
    (
        REPORT,
        "preventable collision rate per 100,000 miles",
        [
            ("The bus preventable collision rate fell to 1.9", "There were no fatalities on the system."),
        ],
    ),
    (
        REPORT,
        "How are bus drivers being protected from violence?",
        [
            ("There were 46 reported assaults on operators in 2024", "fitted by June 2025."),
        ],
    ),
    (
        REPORT,
        "What do the unarmed staff riding the trains do?",
        [
            ("The Authority added 24 community safety ambassadors", "call police only when needed."),
        ],
    ),
    (
        REPORT,
        "By what year will every bus be zero-emission?",
        [
            "The Board's Zero-Emission Fleet Plan commits the Authority to a fully zero-emission bus fleet by 2040.",
        ],
    ),
    (
        REPORT,
        "Why did the battery buses arrive late?",
        [
            "Delivery slipped from March to August because the manufacturer could not obtain enough battery modules.",
        ],
    ),
    (
        REPORT,
        "How does winter affect the range of the electric buses?",
        [
            (
                "In their first four months the electric buses averaged",
                "assigned to the shorter blocks in winter.",
            ),
        ],
    ),
    (
        REPORT,
        "When are the buses plugged in to charge?",
        [
            ("Charging is scheduled overnight, between 11 p.m. and 5 a.m.", "under 2.4 megawatts."),
        ],
    ),
    (
        REPORT,
        "mean distance between major mechanical failures",
        [
            ("The mean distance between major mechanical failures", "from 7,900 miles to 9,300 miles."),
        ],
    ),
    (
        REPORT,
        "How much will the rail line to Eastgate cost and when would trains run?",
        [
            ("Its estimated cost is $612 million", "service in 2029."),
        ],
    ),
    (
        REPORT,
        "Did the station rebuild stay within its budget?",
        [
            "It was finished $1.8 million under its $36 million budget.",
        ],
    ),
    (
        REPORT,
        "Where does the money for day-to-day operations come from?",
        [
            ("Operating revenue came from four sources", "($34.5 million, 12 percent)."),
        ],
    ),
    (
        REPORT,
        "farebox recovery ratio",
        [
            "The farebox recovery ratio, fare revenue divided by operating expenses, was 13.4 percent.",
        ],
    ),
    (
        REPORT,
        "Will the authority run short of money in coming years?",
        [
            ("The 2025 budget balances without them", "unless new revenue is found."),
        ],
    ),
    (
        REPORT,
        "What single improvement do passengers want most?",
        [
            "Riders told us the same thing in our survey: waiting less matters more to them than any other "
            "improvement we could make.",
            ("Asked what one improvement they wanted most", "9 percent cleaner vehicles."),
        ],
    ),
    (
        REPORT,
        "What do riders complain about most and what was done about it?",
        [
            ("The most common complaint was a bus that passed a waiting rider", "have fallen by a third."),
        ],
    ),
    (
        REPORT,
        "How far in advance do I have to book a paratransit ride?",
        [
            ("Ninety-one percent of Access trips picked up", "by 5 p.m. the day before."),
        ],
    ),
    (
        REPORT,
        "What is a block in bus scheduling?",
        [
            ("**Block.**", "until it returns."),
        ],
    ),
    (
        REPORT,
        "rider satisfaction survey 2024 results",
        [
            ("The annual rider survey, conducted in October", "up from 72 percent."),
        ],
    ),
    # --- manual: SQLite documentation (public domain) ---
    (
        MANUAL,
        "What are the advantages of write-ahead logging over a rollback journal?",
        [
            ("WAL is significantly faster in most scenarios.", "system call is broken."),
        ],
    ),
    (
        MANUAL,
        "Can several machines share a WAL database over a network drive?",
        [
            "All processes using a database must be on the same host computer; WAL does not work over a network "
            "filesystem.",
            "This is why the write-ahead log implementation will not work on a network filesystem.",
        ],
    ),
    (
        MANUAL,
        "Can I change the page size of a database that is in WAL mode?",
        [
            (
                "It is not possible to change the page_size after entering WAL mode",
                "to change the page size.",
            ),
        ],
    ),
    (
        MANUAL,
        "How does a commit happen in WAL mode without touching the database file?",
        [
            ("The WAL approach inverts this.", "is appended to the WAL."),
        ],
    ),
    (
        MANUAL,
        "default automatic checkpoint threshold pages",
        [
            (
                "By default, SQLite does a checkpoint automatically when the WAL file reaches",
                "of 1000 pages.",
            ),
        ],
    ),
    (
        MANUAL,
        "How do readers locate pages in the log without scanning the whole file?",
        [
            (
                "Readers can exist in separate processes, so to avoid forcing every reader",
                "a minimum of I/O.",
            ),
        ],
    ),
    (
        MANUAL,
        "How many writers can be active at once with WAL?",
        [
            "However, since there is only one WAL file, there can only be one writer at a time.",
        ],
    ),
    (
        MANUAL,
        "Why can a long open read stop the checkpointer from finishing?",
        [
            ("A checkpoint can run concurrently with readers", "past the end mark of any current reader."),
            "Thus a long-running read transaction can prevent a checkpointer from making progress.",
        ],
    ),
    (
        MANUAL,
        "Why is an occasional COMMIT much slower than the rest?",
        [
            ("This has the effect of causing most COMMIT operations to be very fast", "to be much slower."),
        ],
    ),
    (
        MANUAL,
        "tradeoff between read and write performance when choosing how often to checkpoint",
        [
            (
                "Notice too that there is a tradeoff between average read performance",
                "as large as possible before each checkpoint.",
            ),
        ],
    ),
    (
        MANUAL,
        "How do I turn on WAL for my database?",
        [
            ("An SQLite database connection defaults to journal_mode=DELETE.", "PRAGMA journal_mode=WAL;"),
        ],
    ),
    (
        MANUAL,
        "checkpoint modes PASSIVE FULL RESTART",
        [
            (
                "There are three subtypes of checkpoints that vary in their aggressiveness",
                "concurrent readers or writers.",
            ),
        ],
    ),
    (
        MANUAL,
        "If I close and reopen the database, is it still in WAL mode?",
        [
            (
                "Unlike the other journaling modes, PRAGMA journal_mode=WAL is persistent.",
                "will come back in WAL mode.",
            ),
        ],
    ),
    (
        MANUAL,
        "What is the log file named on disk and when does it go away?",
        [
            (
                "The name of this file on disk is usually the name of the database file",
                "compiled with SQLITE_ENABLE_8_3_NAMES.",
            ),
            "Usually, the WAL file is deleted automatically when the last connection to the database closes.",
        ],
    ),
    (
        MANUAL,
        "Is it safe to copy just the database file and leave the -wal file behind?",
        [
            (
                "The WAL file is part of the persistent state of the database",
                "the database file might become corrupted.",
            ),
        ],
    ),
    (
        MANUAL,
        "open WAL database on read-only media",
        [
            (
                "On newer versions of SQLite, a WAL-mode database on read-only media",
                "opened using the immutable query parameter.",
            ),
        ],
    ),
    (
        MANUAL,
        "Why does my -wal file keep getting bigger and never shrink?",
        [
            (
                "But it is possible to get SQLite into a state where the WAL file will grow without bound",
                "slow queries speeds.",
            ),
            (
                "However, if a database has many concurrent overlapping readers",
                "the WAL file will grow without bound.",
            ),
        ],
    ),
    (
        MANUAL,
        "reader gaps checkpoint starvation",
        [
            (
                'This scenario can be avoided by ensuring that there are "reader gaps"',
                "attempted during those times.",
            ),
        ],
    ),
    (
        MANUAL,
        "How large does the log get before it is reused?",
        [
            ("In normal cases, new content is appended to the WAL file until", "the WAL file is recycled."),
        ],
    ),
    (
        MANUAL,
        "Why is the wal-index an mmapped file instead of /dev/shm?",
        [
            (
                "The problem with that approach is that processes with a different root directory",
                "leading to database corruption.",
            ),
            ("The only way we have found to guarantee", "in the same directory as the database itself."),
        ],
    ),
    (
        MANUAL,
        "use WAL without shared memory exclusive locking mode",
        [
            (
                "Beginning in SQLite version 3.7.4 (2010-12-07), WAL databases can be created",
                "before the first attempted access.",
            ),
        ],
    ),
    (
        MANUAL,
        "Why do I get SQLITE_BUSY reading the browser's database while it runs?",
        [
            (
                "If another database connection has the database mode open in exclusive locking mode",
                "will run into this problem, for example.",
            ),
        ],
    ),
    (
        MANUAL,
        "What happens if an old SQLite version opens a WAL-mode database?",
        [
            (
                "To prevent older versions of SQLite (prior to version 3.7.0",
                '"file is encrypted or is not a database".',
            ),
        ],
    ),
    (
        MANUAL,
        "Can transactions be nested inside each other?",
        [
            (
                "Transactions created using BEGIN...COMMIT do not nest.",
                "use the SAVEPOINT and RELEASE commands.",
            ),
        ],
    ),
    (MANUAL, "END TRANSACTION", ["END TRANSACTION is an alias for COMMIT."]),
    (
        MANUAL,
        "difference between DEFERRED IMMEDIATE and EXCLUSIVE transactions",
        [
            "Transactions can be DEFERRED, IMMEDIATE, or EXCLUSIVE. The default transaction behavior is DEFERRED.",
            ("EXCLUSIVE and IMMEDIATE are the same in WAL mode", "while the transaction is underway."),
        ],
    ),
    (
        MANUAL,
        "Will my open read see rows another connection just wrote?",
        [
            (
                "While a read transaction is active, any changes to the database that are implemented by separate",
                "will not be seen by the database connection that started the read transaction.",
            ),
        ],
    ),
    (
        MANUAL,
        "Which errors can cause a transaction to be rolled back automatically?",
        [
            ("The errors that can cause an automatic rollback include:", "SQLITE_NOMEM: out of memory"),
        ],
    ),
    (
        MANUAL,
        "What should my program do after a disk full or I/O error inside a transaction?",
        [
            "It is recommended that applications respond to the errors listed above by explicitly issuing a ROLLBACK "
            "command.",
        ],
    ),
    (
        MANUAL,
        "How are true and false stored?",
        [
            ("SQLite does not have a separate Boolean storage class.", "integers 0 (false) and 1 (true)."),
        ],
    ),
    (
        MANUAL,
        "What column type should I use for timestamps?",
        [
            (
                "SQLite does not have a storage class set aside for storing dates and/or times.",
                "TEXT, REAL, or INTEGER values:",
            ),
        ],
    ),
    (
        MANUAL,
        "rules for determining column affinity from declared type",
        [
            (
                'If the declared type contains the string "INT" then it is assigned INTEGER affinity.',
                "Otherwise, the affinity is NUMERIC.",
            ),
        ],
    ),
    (
        MANUAL,
        "Why does a column declared FLOATING POINT end up with integer affinity?",
        [
            (
                'Note that a declared type of "FLOATING POINT" would give INTEGER affinity',
                'at the end of "POINT".',
            ),
        ],
    ),
    (
        MANUAL,
        "case-insensitive comparison of strings",
        [
            ("**NOCASE** - Similar to binary", "considered string terminators for comparison purposes."),
        ],
    ),
    (
        MANUAL,
        "Does SQLite enforce the type declared for a column?",
        [
            ("SQLite uses a more general dynamic type system.", "not with its container."),
            ("Update: As of version 3.37.0 (2021-11-27), SQLite provides STRICT tables", "kind of thing."),
        ],
    ),
    (
        MANUAL,
        "In what order are NULLs, numbers, strings and blobs sorted?",
        [
            (
                "When query results are sorted by an ORDER BY clause, values with storage class NULL come first",
                "BLOB values in memcmp() order.",
            ),
        ],
    ),
    (MANUAL, "division by zero result", ["Division by zero gives a result of NULL."]),
    # --- transcript: State of the Union address, 2014 (public domain) ---
    (
        TRANSCRIPT,
        "What signs of economic recovery did the president list?",
        [
            (
                "And here are the results of your efforts: the lowest unemployment rate",
                "our deficits cut by more than half.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "Have paychecks grown along with company profits?",
        [
            (
                "Today, after 4 years of economic growth, corporate profits and stock prices",
                "Upward mobility has stalled.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "Will the president act on his own if Congress doesn't pass laws?",
        [
            ("So wherever and whenever I can take steps without legislation", "that's what I'm going to do."),
        ],
    ),
    (
        TRANSCRIPT,
        "Let's Move childhood obesity",
        [
            ("Michelle's \"Let's Move!\" partnership", "for the first time in 30 years."),
        ],
    ),
    (
        TRANSCRIPT,
        "How many veterans and military spouses got jobs through the First Lady's initiative?",
        [
            (
                "The Joining Forces alliance that Michelle and Jill Biden launched",
                "veterans and military spouses.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "tax code loopholes reward companies moving jobs overseas",
        [
            ("Let's work together to close those loopholes", "create jobs right here at home."),
        ],
    ),
    (
        TRANSCRIPT,
        "Where are the advanced manufacturing institutes and how many more are coming?",
        [
            (
                "My administration has launched two hubs for high-tech manufacturing",
                "we'll launch six more this year.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "What share of American exporters are small firms?",
        [
            ("And when 98 percent of our exporters are small businesses", "help them create more jobs."),
        ],
    ),
    (
        TRANSCRIPT,
        "Congress should restore science funding cuts",
        [
            (
                "And that's why Congress should undo the damage done by last year's cuts to basic research",
                "the next great American discovery.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "natural gas bridge fuel",
        [
            ("If extracted safely, it's the bridge fuel", "carbon pollution that causes climate change."),
        ],
    ),
    (
        TRANSCRIPT,
        "How often does another home install solar panels?",
        [
            ("Every 4 minutes, another American home or business goes solar", "cannot be outsourced."),
        ],
    ),
    (
        TRANSCRIPT,
        "subsidies for oil and coal companies",
        [
            (
                "Let's continue that progress with a smarter tax policy that stops giving $4 billion a year",
                "fuels of the future that do.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "Does the president think global warming is still up for debate?",
        [
            "But the debate is settled. Climate change is a fact.",
        ],
    ),
    (
        TRANSCRIPT,
        "What would fixing immigration do to the budget deficit?",
        [
            (
                "Independent economists say immigration reform will grow our economy",
                "in the next two decades.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "Who will lead the overhaul of federal job training?",
        [
            (
                "So tonight I've asked Vice President Biden to lead an across-the-board reform",
                "match them to good jobs that need to be filled right now.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "Andra Rush Detroit manufacturing firm American Job Center",
        [
            (
                "Two years ago, as the auto industry came roaring back, Andra Rush",
                "has more than 700 employees.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "How many jobless people lost their benefits when Congress let them lapse?",
        [
            "But first, this Congress needs to restore the unemployment insurance you just let expire for 1.6 million people.",
        ],
    ),
    (
        TRANSCRIPT,
        "letter from a mother who lost her job after budget cuts",
        [
            ("Misty DeMars is a mother of two young boys.", 'Please give us this chance."'),
        ],
    ),
    (
        TRANSCRIPT,
        "preschool for every four-year-old",
        [
            (
                "Last year, I asked this Congress to help States make high-quality pre-K available to every 4-year-old.",
                "30 States have raised pre-K funding on their own.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "How many schools will get high-speed internet?",
        [
            (
                "Tonight I can announce that with the support of the FCC",
                "without adding a dime to the deficit.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "Can student debt payments be limited to a share of income?",
        [
            (
                "We're offering millions the opportunity to cap their monthly student loan payments",
                "trapped by student loan debt.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "women's pay compared with men",
        [
            ("Today, women make up about half our workforce", "Women deserve equal pay for equal work."),
        ],
    ),
    (
        TRANSCRIPT,
        "What hourly wage will federal contract workers be paid?",
        [
            (
                "In the coming weeks, I will issue an Executive order requiring Federal contractors",
                "10 dollars and 10 cents an hour.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "How much has the minimum wage lost in value since the 1980s?",
        [
            "Today, the Federal minimum wage is worth about 20 percent less than it was when Ronald Reagan first stood here.",
        ],
    ),
    (
        TRANSCRIPT,
        "earned-income tax credit for workers without children",
        [
            ("But I agree with Republicans like Senator Rubio", "single workers who don't have kids."),
        ],
    ),
    (
        TRANSCRIPT,
        "What is the new retirement savings account the Treasury will create?",
        [
            (
                "It's a new savings bond that encourages folks to build a nest egg.",
                "no risk of losing what you put in.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "How many people have gained health coverage under the new law?",
        [
            ("Already, because of the Affordable Care Act", "private health insurance or Medicaid coverage."),
        ],
    ),
    (
        TRANSCRIPT,
        "single mom from Arizona who needed emergency surgery right after getting insured",
        [
            (
                "Now, a preexisting condition used to mean that someone like Amanda Shelley",
                "that surgery would have meant bankruptcy.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "long lines at polling places",
        [
            ("And the bipartisan Commission I appointed", "wait more than a half hour to vote."),
        ],
    ),
    (
        TRANSCRIPT,
        "When will the war in Afghanistan be over?",
        [
            (
                "Together with our allies, we will complete our mission there by the end of this year",
                "America's longest war will finally be over.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "closing the detention facility in Cuba",
        [
            (
                "And with the Afghan war ending, this needs to be the year Congress lifts",
                "close the prison at Guantanamo Bay.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "Would the president block a new Iran sanctions bill?",
        [
            (
                "If this Congress sends me a new sanctions bill now that threatens to derail these talks",
                "I will veto it.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "limits on drone strikes",
        [
            (
                "That's why I've imposed prudent limits on the use of drones.",
                "without regard for the consequence.",
            ),
        ],
    ),
    (
        TRANSCRIPT,
        "What happened to the Army Ranger honored at the end of the speech?",
        [
            ("I first met Cory Remsburg, a proud Army Ranger", "on the 65th anniversary of D-day."),
            (
                "A few months later, on his 10th deployment, Cory was nearly killed",
                "roadside bomb in Afghanistan.",
            ),
        ],
    ),
    # --- encyclopedia: The Jargon File 4.4.7 (public domain) ---
    (
        ENCYCLOPEDIA,
        "Who are Alice and Bob?",
        [
            "The archetypal individuals used as examples in discussions of cryptographic protocols.",
        ],
    ),
    (
        ENCYCLOPEDIA,
        "What is the eavesdropper called in the standard cast of cryptography characters?",
        [
            (
                "Others include Carol (a participant in three- and four-party protocols)",
                "Victor (a verifier).",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How did Ken Thompson hide a password in the login program through the compiler?",
        [
            (
                "In this scheme, the C compiler contained code that would recognize when the login command",
                "whether or not an account had been created for him.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Reflections on Trusting Trust Communications of the ACM",
        [
            ("The Turing lecture that reported this truly moby hack was later published", "pp. 761--763"),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Why don't modern computers have front-panel lights that show the registers?",
        [
            ("The obvious reasons (cost of wiring", "it's all a blur."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Connection Machine grid of red lights",
        [
            ("The Connection Machine, a 65,536-processor parallel computer", "evolving life patterns."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "What is a bogon?",
        [
            ("1. The elementary particle of bogosity", "acting in an erratic or bogus fashion."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Why is trying every possible route for the travelling salesman considered stupid?",
        [
            ("The brute-force method is to simply generate all possible routes", "in that order)."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "When in doubt, use brute force",
        [
            ("Ken Thompson, co-inventor of Unix, is reported to have uttered the epigram", "use brute force"),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Where was the moth found that gave us the first computer bug?",
        [
            (
                "Admiral Grace Hopper (an early computing pioneer",
                "out from between the contacts of one of its relays",
            ),
            (
                "The text of the log entry (from September 9, 1947), reads",
                "First actual case of bug being found",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Is the original computer bug on display in the Smithsonian?",
        [
            ("It was moved to the Smithsonian in mid-1991", "not actually exhibited for years afterwards."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Did Shakespeare use the word bug?",
        [
            (
                "Actually, use of bug in the general sense of a disruptive event goes back to Shakespeare!",
                "Warwick was a bug that fear'd us all.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Do particles from space really cause random memory errors?",
        [
            (
                "Factual note: Alpha particles cause bit rot, cosmic rays do not",
                "in the encapsulation material.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Intel lead safe experiment",
        [
            ("So they created the World's Largest Lead Safe", "used two identical boards for testing."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How do hackers differ from people who break into systems?",
        [
            ("One who breaks security on a system. Coined ca. 1985 by hackers", "(q.v., sense 8)."),
            (
                "Crackers tend to gather in small, tight-knit, very secretive groups",
                "a separate and lower form of life.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Who invented the switch-and-loop unrolling trick in C and why?",
        [
            (
                "The most dramatic use yet seen of fall through in C, invented by Tom Duff",
                "he decided to unroll it.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "spelling corrector deleted every file on the disk at Xerox PARC",
        [
            (
                "It happened that there weren't any editor backup files",
                "It then started to delete all the files on the disk!",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Who invented the smiley face in online messages?",
        [
            (
                "The invention of the original smiley and frowney emoticons is generally credited to Scott Fahlman",
                "at CMU in 1982.",
            ),
            ("There is a rival claim by one Kevin McKenzie", "April 12 1979."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How many smileys per paragraph is too many?",
        [
            (
                "Note for the newbie: Overuse of the smiley is a mark of loserhood!",
                "you've gone over the line.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Where does the word foo come from?",
        [
            "The earliest documented uses were in the Smokey Stover comic strip published from about 1930 to about 1952.",
        ],
    ),
    (
        ENCYCLOPEDIA,
        "foo fighters radar UFO",
        [
            ("In 1944-45, the term", "would later be called a UFO"),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Who coined the term for fear, uncertainty and doubt in sales?",
        [
            ("Defined by Gene Amdahl after he left IBM to found his own company", "[Amdahl] products."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Is breaking into computers for fun considered ethical by hackers?",
        [
            (
                "2. The belief that system-cracking for fun and exploration is ethically OK",
                "breach of confidentiality.",
            ),
            ("Sense 2 is more controversial", "like breaking and entering."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "What was the MIT memo full of programming and math tricks?",
        [
            ("MIT AI Memo 239 (February 1972).", "contributed by many people at MIT and elsewhere."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "number of primes less than 2^18",
        [
            "Item 41 (Gene Salamin): There are exactly 23,000 prime numbers less than 2^18.",
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Who designed the language INTERCAL and when?",
        [
            "A computer language designed by Don Woods and James Lyons in 1972.",
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Where does the word kluge come from?",
        [
            ("[from the German", "a main point)]"),
            (
                "Several respondents have connected it to the brand name of a device called a",
                "adjunct to mechanical printing presses.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How did the spelling kludge become popular?",
        [
            ("The variant", "(February 1962, pp. 30, 31)."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "fake Usenet site at the Kremlin April Fools 1984",
        [
            ("Originally, a fictitious Usenet site at the Kremlin", "as an April Fool's joke."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "What role did Soviet networks play during the failed coup in 1991?",
        [
            (
                "During those three days the Soviet UUCP network centered on kremvax",
                "many places within the USSR.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How did the word luser start?",
        [
            ("This word was coined around 1975 at MIT.", "losers” instead."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How many things can people keep in short-term memory?",
        [
            ("The magic number, on the other hand, is 7", "humans can hold in short-term memory."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How does Unix tell what kind of executable a file is?",
        [
            (
                "Under Unix, the system and various applications programs (especially the linker)",
                "looking for a magic number.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "original wording of Murphy's Law",
        [
            ("The correct, original Murphy's Law reads:", "then someone will do it."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "rocket sled accelerometers installed the wrong way",
        [
            ("One experiment involved a set of 16 accelerometers", "the wrong way around."),
        ],
    ),
    (ENCYCLOPEDIA, "How many bits are in a nybble?", ["Four bits; one hex digit; a half-byte."]),
    (
        ENCYCLOPEDIA,
        "Was there ever a bug that really depended on the moon?",
        [
            (
                "True story: Once upon a time there was a program bug that really did depend on the phase of the moon.",
                "the bug literally depended on the phase of the moon!",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "LEP particle accelerator errors caused by the Moon",
        [
            ("A few desperate engineers discovered the truth", "by the passage of the Moon!"),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "be liberal in what you accept and conservative in what you send",
        [
            ("Several of the key Internet RFCs, especially 1122 and 791", "conservative in what you send."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Do Real Programmers write documentation?",
        [
            (
                "Real Programmers never use comments or write documentation",
                "it should be hard to understand.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "What happened to the swimming monkey at the University of Toronto?",
        [
            (
                "This term preserves the memory of Mabel, the Swimming Wonder Monkey",
                "custom hardware that was wired to Mabel.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "vendors ignoring security holes and hoping nobody finds them",
        [
            (
                "A term applied by hackers to most OS vendors' favorite way of coping with security holes",
                "won't exploit them.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Why did old COBOL programs break in the year 2000?",
        [
            (
                "For example, owing to endemic shortsightedness in the design of COBOL programs",
                "at the beginning of the year 2000.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "101-year-old refused a driver's license because of two-digit years",
        [
            (
                "One such incident became the focus of a minor public flap in 1990",
                "the ages 101 and 1 cannot be distinguished.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "What does spam mean for email?",
        [
            (
                "5. To mass-mail unrequested identical or nearly-identical email messages",
                "the messages so sent.",
            ),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "How many relays did the MIT model railroad control system have?",
        [
            "The control system alone featured about 1200 relays.",
        ],
    ),
    (
        ENCYCLOPEDIA,
        "Where does the word troll come from?",
        [
            ("Derives from the phrase", "likely spot hoping for a bite."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "assumptions C programmers make that only hold on VAX machines",
        [
            ("A notional disease said to afflict C programmers", "on VAXen but false elsewhere."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "assuming int is 32 bits sizeof(int) == sizeof(long)",
        [
            ("13. The assumption that an int is 32 bits", "64-bit systems like the Alpha, of course)."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "xyzzy minesweeper cheat",
        [
            ("Early versions of the popular", "whether or not the cursor is over a bomb."),
        ],
    ),
    (
        ENCYCLOPEDIA,
        "What does the magic word do in the Colossal Cave game?",
        [
            "If you type xyzzy at the appropriate time, you can move instantly between two otherwise distant points.",
        ],
    ),
]


def read_text(path: Path) -> str:
    """Read a .txt/.md file the way sectionrag's text parsers do (UTF-8, ``\\n`` newlines)."""
    raw = path.read_bytes().decode("utf-8-sig")
    return raw.replace("\r\n", "\n").replace("\r", "\n")


def locate(text: str, span: Span, where: str) -> tuple[int, int]:
    """Return the offsets of ``span`` in ``text``; exit with a message if it is missing or ambiguous."""
    first, last = (span, span) if isinstance(span, str) else span
    count = text.count(first)
    if count != 1:
        sys.exit(f"{where}: {first[:60]!r} occurs {count} times (need exactly 1)")
    start = text.index(first)
    if isinstance(span, str):
        return start, start + len(first)
    j = text.find(last, start)
    if j < 0:
        sys.exit(f"{where}: end {last[:60]!r} not found after start")
    end = j + len(last)
    if end - start > 1500:
        sys.exit(f"{where}: span is {end - start} chars; keep references tight")
    return start, end


def build() -> list[dict[str, object]]:
    """Resolve every query's spans into offsets."""
    texts = {name: read_text(HERE / name) for name in DOC_TYPES}
    counters: dict[str, int] = {}
    rows: list[dict[str, object]] = []
    seen: set[str] = set()
    for source, query, spans in QUERIES:
        if query in seen:
            sys.exit(f"duplicate query {query!r}")
        seen.add(query)
        kind = DOC_TYPES[source]
        counters[kind] = counters.get(kind, 0) + 1
        qid = f"{kind}-{counters[kind]:02d}"
        refs = []
        for span in spans:
            start, end = locate(texts[source], span, qid)
            refs.append({"source": source, "start": start, "end": end, "answer": texts[source][start:end]})
        rows.append(
            {
                "id": qid,
                "query": query,
                "kind": "question" if query.rstrip().endswith("?") else "keywords",
                "doc_type": kind,
                "references": refs,
            }
        )
    return rows


def main() -> None:
    """Write queries.jsonl next to this script."""
    rows = build()
    out = HERE / "queries.jsonl"
    with out.open("w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    by_type: dict[str, int] = {}
    for row in rows:
        by_type[str(row["doc_type"])] = by_type.get(str(row["doc_type"]), 0) + 1
    print(f"wrote {len(rows)} queries to {out}: {by_type}")


if __name__ == "__main__":
    main()
