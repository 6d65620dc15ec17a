"""Queries written for the retrieval set by reading the documents (see README.md).

Each entry: (source file, kind, query, [evidence quotes]). A quote is an
excerpt of the document (or ``(excerpt, n)`` for the ``n``-th of several
occurrences, 0-based), matched after normalising whitespace, quotes and
dashes; ``"A [...] B"`` covers everything from ``A`` to the next ``B``.
"""

# ruff: noqa: E501, RUF001

BOOK = "book/persuasion_ch01-12.txt"
FOLDOC = "encyclopedia/foldoc_entries.md"
SED = "manual/gnu_sed_manual_ch3-4.txt"
FDR = "transcript/sotu_1941_roosevelt.txt"
JFK = "transcript/sotu_1962_kennedy.txt"
RR = "transcript/sotu_1985_reagan.txt"
ABS = "abstracts/r_package_abstracts.md"
AAPL = "finance/2023_Q3_AAPL.md"
AMZN = "finance/2023_Q3_AMZN.md"
INTC = "finance/2023_Q3_INTC.md"
MSFT = "finance/2023_Q3_MSFT.md"
NVDA = "finance/2023_Q3_NVDA.md"

Q = "question"
K = "keywords"

QUERIES: list[tuple[str, str, str, list[str | tuple[str, int]]]] = [
    # --- book: Persuasion, chapters 1-12 ---
    (
        BOOK,
        Q,
        "What was the only book Sir Walter Elliot ever read for his own amusement?",
        ["never took up any book but the Baronetage"],
    ),
    (
        BOOK,
        Q,
        "How long was Lady Elliot able to cover for her husband's failings?",
        [
            "She had humoured, or softened, or concealed his failings, and promoted his real respectability for seventeen years"
        ],
    ),
    (
        BOOK,
        Q,
        "For how many years had Elizabeth been running the household at Kellynch?",
        ["Thirteen years had seen her mistress of Kellynch Hall"],
    ),
    (
        BOOK,
        Q,
        "Was Lady Russell a quick-witted woman?",
        ["She was a woman rather of sound than of quick abilities"],
    ),
    (
        BOOK,
        Q,
        "How did Sir Walter take Lady Russell's plan to cut back on spending?",
        ["Lady Russell's had no success at all: could not be put up with, were not to be borne."],
    ),
    (
        BOOK,
        Q,
        "Why did Lady Russell think a change would do Anne good?",
        [
            "Anne had been too little from home, too little seen. Her spirits were not high. A larger society would improve them."
        ],
    ),
    (
        BOOK,
        Q,
        "Could Lady Russell influence Elizabeth?",
        ["Lady Russell, indeed, had scarcely any influence with Elizabeth"],
    ),
    (
        BOOK,
        Q,
        "What limits did Sir Walter want to put on a tenant using his grounds?",
        ["I am not fond of the idea of my shrubberies being always approachable"],
    ),
    (
        BOOK,
        Q,
        "How did the lawyer describe the admiral who wanted to rent Kellynch?",
        ["Admiral Croft was a very hale, hearty, well-looking man, a little weather-beaten"],
    ),
    (
        BOOK,
        K,
        "Crofts tenants age number fortune",
        ["their age, and number, and fortune; the high idea they had formed of Kellynch Hall"],
    ),
    (
        BOOK,
        Q,
        "What did Sir Walter think of Anne's engagement to the young naval officer?",
        ["He thought it a very degrading alliance"],
    ),
    (
        BOOK,
        Q,
        "How many years have passed since Anne broke off her engagement?",
        [
            "More than seven years were gone since this little history of sorrowful interest had reached its close"
        ],
    ),
    (
        BOOK,
        Q,
        "How did the first meeting between Sir Walter and the Admiral turn out?",
        [
            "This meeting of the two parties proved highly satisfactory, and decided the whole business at once."
        ],
    ),
    (
        BOOK,
        Q,
        "What did Mrs Clay look like?",
        ["Mrs Clay had freckles, and a projecting tooth, and a clumsy wrist"],
    ),
    (BOOK, Q, "What kind of place is Uppercross?", ["Uppercross was a moderate-sized village"]),
    (
        BOOK,
        Q,
        "How old are the two Musgrove girls?",
        ["Henrietta and Louisa, young ladies of nineteen and twenty"],
    ),
    (
        BOOK,
        Q,
        "Was Anne worried about spending two months at her sister's cottage?",
        ["She had no dread of these two months."],
    ),
    (
        BOOK,
        Q,
        "Why doesn't Mary like her children visiting their grandmother?",
        [
            "gives them so much trash and sweet things, that they are sure to come back sick and cross for the rest of the day"
        ],
    ),
    (
        BOOK,
        Q,
        "What did Anne do at the Musgroves' impromptu dances?",
        ["played country dances to them by the hour together"],
    ),
    (
        BOOK,
        Q,
        "Which Wentworth brother was Mrs Croft talking about when Anne got confused?",
        [
            "She immediately felt how reasonable it was, that Mrs Croft should be thinking and speaking of Edward, and not of Frederick"
        ],
    ),
    (
        BOOK,
        Q,
        "On which ship did poor Richard Musgrove serve under Wentworth?",
        ["been six months on board Captain Frederick Wentworth's frigate, the Laconia"],
    ),
    (
        BOOK,
        Q,
        "Why was Mr Musgrove disappointed about when Wentworth could come to dinner?",
        ["It had been a great disappointment to Mr Musgrove to find that no earlier day could be fixed"],
    ),
    (
        BOOK,
        Q,
        "How does Mary justify leaving her injured little boy at home?",
        ["I may just as well go as not, for I am of no use at home"],
    ),
    (
        BOOK,
        Q,
        "What impression did Captain Wentworth make at the Great House dinner?",
        ["charming manners in Captain Wentworth, no shyness or reserve"],
    ),
    (
        BOOK,
        Q,
        "What did Wentworth say about how much Anne had changed?",
        ['"Altered beyond his knowledge." Anne fully submitted, in silent, deep mortification.'],
    ),
    (
        BOOK,
        Q,
        "What did the Musgrove sisters ask Wentworth about navy life?",
        ["as to the manner of living on board, daily regulations, food, hours"],
    ),
    (
        BOOK,
        Q,
        "Where did Wentworth go cruising with his friend when he had the Laconia?",
        ["A friend of mine and I had such a lovely cruise together off the Western Islands."],
    ),
    (
        BOOK,
        Q,
        "Does Mrs Croft think ships are unsuitable for women?",
        ["Women may be as comfortable on board, as in the best house in England."],
    ),
    (
        BOOK,
        Q,
        "Why did Wentworth put off his visit to his brother in Shropshire?",
        ["the attractions of Uppercross induced him to put this off"],
    ),
    (
        BOOK,
        Q,
        "Did Henrietta's parents object to Charles Hayter's attentions?",
        [
            "Charles's attentions to Henrietta had been observed by her father and mother without any disapprobation."
        ],
    ),
    (
        BOOK,
        Q,
        "How large is the Winthrop estate?",
        ["The estate at Winthrop is not less than two hundred and fifty acres"],
    ),
    (
        BOOK,
        Q,
        "Why was Charles Hayter unhappy when he returned?",
        ["Charles Hayter had met with much to disquiet and mortify him in his cousin's behaviour."],
    ),
    (
        BOOK,
        Q,
        "Which of the Musgrove sisters did Anne think Wentworth loved?",
        ["Captain Wentworth was not in love with either"],
    ),
    (
        BOOK,
        Q,
        "How often do the Admiral and his wife overturn their gig?",
        ["I wonder whereabouts they will upset to-day."],
    ),
    (
        BOOK,
        Q,
        "What does Wentworth say happens to people without firmness of mind?",
        ["when they are placed in circumstances requiring fortitude and strength of mind"],
    ),
    (
        BOOK,
        Q,
        "Who did Anne end up walking with on the long walk through the meadow?",
        ["She joined Charles and Mary"],
    ),
    (
        BOOK,
        Q,
        "Why can't sailors have long courtships?",
        ["We sailors, Miss Elliot, cannot afford to make long courtships in time of war."],
    ),
    (
        BOOK,
        Q,
        "What was Lyme like when they arrived late in the season?",
        ["The rooms were shut up, the lodgers almost all gone"],
    ),
    (
        BOOK,
        Q,
        "What sort of man was Captain Harville?",
        [
            "Captain Harville, though not equalling Captain Wentworth in manners, was a perfect gentleman, unaffected, warm, and obliging."
        ],
    ),
    (
        BOOK,
        Q,
        "Who recovered his health by spending a month at the seaside?",
        ["There can be no doubt of its having been of the greatest service to Dr Shirley, after his illness"],
    ),
    (
        BOOK,
        Q,
        "Who noticed Anne on the steps up from the beach?",
        ["Anne's face caught his eye, and he looked at her with a degree of earnest admiration"],
    ),
    (
        BOOK,
        Q,
        "Who had to keep up the correspondence with Elizabeth in Bath?",
        ["all the toil of keeping up a slow and unsatisfactory correspondence with Elizabeth fell on Anne"],
    ),
    (
        BOOK,
        Q,
        "How did Louisa come to fall on the Cobb?",
        ["she must be jumped down them by Captain Wentworth"],
    ),
    (
        BOOK,
        Q,
        "Where was Louisa carried after the accident?",
        [
            "She must be taken to their house; all must go to their house; and await the surgeon's arrival there."
        ],
    ),
    (
        BOOK,
        Q,
        "Who did Wentworth think should stay behind at Lyme to help nurse Louisa?",
        ["but if Anne will stay, no one so proper, so capable as Anne"],
    ),
    (
        BOOK,
        Q,
        "What happened when Anne first got engaged to Wentworth, and how long ago was it?",
        [
            "A short period of exquisite felicity followed, and but a short one.",
            "More than seven years were gone since this little history of sorrowful interest had reached its close",
        ],
    ),
    (
        BOOK,
        Q,
        "How does Lady Russell treat Elizabeth compared with Anne?",
        [
            "Lady Russell, indeed, had scarcely any influence with Elizabeth",
            "Anne had been too little from home, too little seen.",
        ],
    ),
    # --- encyclopedia: FOLDOC entries ---
    (
        FOLDOC,
        Q,
        "Who designed the 6502 chip and when?",
        ["An eight-bit {microprocessor} designed by {MOS Technology} around 1975"],
    ),
    (
        FOLDOC,
        Q,
        "What kind of connector did early Power Macs use for Ethernet?",
        ["Early {Power Macs} and Quadras had an AAUI (Apple Attachment Unit Interface) {port}"],
    ),
    (
        FOLDOC,
        Q,
        "Which magazine cover made the Altair famous?",
        ['It appeared on the cover of the January 1975 "Popular Electronics" magazine'],
    ),
    (
        FOLDOC,
        K,
        "application server business logic platform",
        [
            "helps {programmers} isolate the {business logic} in their {programs} from the {platform}-related code"
        ],
    ),
    (
        FOLDOC,
        Q,
        "Where was Tim Berners-Lee working when he invented the web?",
        [
            "The man who invented the {web} while working at the {Center for European Particle Research} (CERN)."
        ],
    ),
    (
        FOLDOC,
        Q,
        "What is meant by binary data as opposed to text?",
        [
            "Any {file format} for {digital} {data} that does not consist of a sequence of printable {characters} ({text})."
        ],
    ),
    (
        FOLDOC,
        Q,
        "Where does the word blinkenlights come from?",
        ["Derives from the last word of the famous blackletter-Gothic sign in mangled pseudo-German"],
    ),
    (
        FOLDOC,
        Q,
        "Why did Apple sue HP and Microsoft?",
        [
            "claiming they had breeched Apple's {copyright} on the {look and feel} of the {Macintosh user interface}"
        ],
    ),
    (
        FOLDOC,
        Q,
        "What makes a processor a CISC design?",
        [
            "A processor where each instruction can perform several low-level operations such as memory access, arithmetic operations or address calculations."
        ],
    ),
    (
        FOLDOC,
        Q,
        "Who coined the term software, or program?",
        ["The term was coined by the eminent statistician, {John Tukey}."],
    ),
    (
        FOLDOC,
        Q,
        "When did Conway invent the Game of Life and where was it published?",
        [
            'Life was invented by British mathematician {John Horton Conway} in 1970 and was first introduced publicly in "Scientific American" later that year.'
        ],
    ),
    (
        FOLDOC,
        Q,
        "How do you win at Core War?",
        ["The objective is to kill your opponents' programs by overwriting them."],
    ),
    (
        FOLDOC,
        Q,
        "How much do night-owl hackers shift their sleep schedule?",
        ["It is not uncommon to change one's phase by as much as 6 hours per day on a regular basis."],
    ),
    (
        FOLDOC,
        K,
        "DDT debugger archaic term",
        ['In this sense the term DDT is now archaic, having been widely displaced by "debugger"'],
    ),
    (
        FOLDOC,
        Q,
        "What are the main features a debugger offers?",
        ["The most important functions of a debugger are {tracing}, stepping, {breakpoints} and {watches}."],
    ),
    (
        FOLDOC,
        Q,
        "When did Demon Internet start offering access in the UK?",
        ["started Demon Internet on 1992-06-01"],
    ),
    (
        FOLDOC,
        Q,
        "What does a directory service keep track of on a network?",
        [
            "the directory service identifies all aspects of the {network} including users, software, hardware, and the various rights and policies assigned to each"
        ],
    ),
    (
        FOLDOC,
        Q,
        "How are PC graphics standards usually implemented?",
        ["The standards are mostly implemented by plugging in a video display board"],
    ),
    (
        FOLDOC,
        Q,
        "How thick is an optical fibre?",
        ["A plastic or glass (silicon dioxide) fibre no thicker than a human hair"],
    ),
    (
        FOLDOC,
        K,
        "hex digits A-F values 10 to 15",
        ["plus the letters A-F (or a-f) to represent hexadecimal digits with values of (decimal) 10 to 15"],
    ),
    (FOLDOC, Q, "What is HTML based on?", ["HTML is built on top of {SGML}."]),
    (
        FOLDOC,
        Q,
        "How many control lines does a JTAG device have?",
        ["Each device has four JTAG control lines."],
    ),
    (
        FOLDOC,
        Q,
        "What are the steps a CPU goes through for every instruction?",
        [
            "The four steps which the {CPU} carries out for each {machine language} instruction: fetch, decode, execute, and store."
        ],
    ),
    (
        FOLDOC,
        Q,
        "How are different kinds of parallel computers told apart?",
        ["They are distinguished by the kind of interconnection between processors"],
    ),
    (
        FOLDOC,
        Q,
        "What jobs does an operating system do?",
        [
            "The low-level {software} which handles the interface to {peripheral} {hardware}, schedules {tasks}, allocates {storage}"
        ],
    ),
    (
        FOLDOC,
        Q,
        "What's the difference between a patch and a diff?",
        ["Distinguished from a {diff} or {mod} by the fact that a patch is generated by more primitive m"],
    ),
    (
        FOLDOC,
        Q,
        "Who was the Pine email program designed for?",
        ["It was designed specifically with novice computer users in mind"],
    ),
    (
        FOLDOC,
        Q,
        "Why does an OS need a process table?",
        [
            "A table containing all of the information that must be saved when the {CPU} switches from running one {process} to another"
        ],
    ),
    (
        FOLDOC,
        Q,
        "When do hackers tell you RTFS instead of RTFM?",
        ["used when the problem at hand is not necessarily obvious and not answerable from the manuals"],
    ),
    (
        FOLDOC,
        Q,
        "Where does the Sather language get its name?",
        ["Named after the Sather Tower at {UCB}, as opposed to the Eiffel Tower"],
    ),
    (
        FOLDOC,
        Q,
        "Give an example of a notorious software patent",
        ["such as the idea of using {exclusive-or} to plot a cursor on a {bitmap display}"],
    ),
    (
        FOLDOC,
        Q,
        "Why is junk posting called spam?",
        ['From Hormel\'s Spiced Ham, via the Monty Python "Spam" song'],
    ),
    (
        FOLDOC,
        Q,
        "What happens in a spreadsheet when a cell's input changes?",
        ["A value is recalculated automatically whenever a value on which it depends changes."],
    ),
    (
        FOLDOC,
        Q,
        "Who started Standard ML and why?",
        [
            "Originally an attempt by Robin Milner <rm@lfcs.edinburgh.ac.uk> ca. 1984 to unify the dialects of {ML}"
        ],
    ),
    (
        FOLDOC,
        Q,
        "What do the circle, square and diamond operators mean in temporal logic?",
        ["Three {prefix} operators, represented by a circle, square and diamond"],
    ),
    (
        FOLDOC,
        Q,
        "What is a top-level domain?",
        [
            'The last and most significant component of an {Internet} {fully qualified domain name}, the part after the last ".".'
        ],
    ),
    (
        FOLDOC,
        Q,
        "When did Texas Instruments release its first 16-bit microprocessor?",
        ["released by {Texas Instruments} in June 1976"],
    ),
    (
        FOLDOC,
        Q,
        "What does a Turing machine consist of?",
        ['It consists of an infinitely long "tape" with symbols'],
    ),
    (FOLDOC, K, "type inference rule App application", ['This rule, called "App" for application']),
    (
        FOLDOC,
        Q,
        "When were the first V.FC modems shipped?",
        ["The first V.FC modems were shipped in November 1993"],
    ),
    (
        FOLDOC,
        Q,
        "What is vadding and where does the name come from?",
        ["(From VAD, a permutation of ADV, i.e. {ADVENT}"],
    ),
    (
        FOLDOC,
        Q,
        "Why does the 386 have a virtual 8086 mode?",
        ["to allow {real mode} programs to run under {operating systems} which use {protected mode}"],
    ),
    (FOLDOC, Q, "What is a wannabee in hacker slang?", ["A would-be {hacker}."]),
    (
        FOLDOC,
        Q,
        "What kind of company was Watcom and when was it founded?",
        ["Founded in 1974, Watcom initially focused on scientific and engineering markets"],
    ),
    (
        FOLDOC,
        Q,
        "How much memory could a Z8000 address?",
        ["could address up to 23 bits in some versions by using {segment registers}"],
    ),
    (
        FOLDOC,
        Q,
        "Compare the 6502 and the Z8000 processors: how many bits did each have?",
        ["It was an 8-bit processor, with 16-bit {address bus}.", "It was basically a 16-bit processor"],
    ),
    (
        FOLDOC,
        Q,
        "What is the difference between RISC and CISC, and what does a machine cycle consist of?",
        [
            "The term was coined in contrast to {Reduced Instruction Set Computer}.",
            "fetch, decode, execute, and store",
        ],
    ),
    # --- manual: GNU sed chapters 3-4 ---
    (
        SED,
        Q,
        "How do I pass several sed commands at once?",
        ["passed in by one or more of the ‘-e’, ‘-f’, ‘--expression’, and ‘--file’ options"],
    ),
    (
        SED,
        Q,
        "How can I make sed exit with a custom status code when it finds a line?",
        ["If such line is found, ‘sed’ will terminate with exit status 42."],
    ),
    (
        SED,
        Q,
        "Why can't I put a semicolon after the a, c or i commands?",
        [
            "Commands ‘a’, ‘c’, ‘i’, due to their syntax, cannot be followed by semicolons working as command separators"
        ],
    ),
    (
        SED,
        Q,
        "What does the t command do in sed?",
        [
            (
                "Branch to LABEL only if there has been a successful ‘s’ubstitution since the last input line was read or conditional branch was taken.",
                1,
            )
        ],
    ),
    (
        SED,
        Q,
        "How does the s command work?",
        [
            "the ‘s’ command attempts to match the pattern space against the supplied regular expression REGEXP"
        ],
    ),
    (
        SED,
        Q,
        "Can I use a delimiter other than slash in a substitution?",
        [
            "The ‘/’ characters may be uniformly replaced by any other single character within any given ‘s’ command."
        ],
    ),
    (
        SED,
        Q,
        "Does case conversion with \\u carry over between matches when using the g flag?",
        [
            "When the ‘g’ flag is being used, case conversion does not propagate from one occurrence of the regular expression to another."
        ],
    ),
    (
        SED,
        K,
        "s command e and p flags order",
        [
            "when both the ‘p’ and ‘e’ options are specified, the relative ordering of the two produces very different results"
        ],
    ),
    (
        SED,
        Q,
        "How do I run the result of a substitution as a shell command?",
        [
            "If a substitution was made, the command that is found in pattern space is executed and pattern space is replaced with its output."
        ],
    ),
    (
        SED,
        Q,
        "Are comments portable across sed implementations?",
        [
            "some implementations of ‘sed’ (which are not POSIX conforming) may only support a single one-line comment"
        ],
    ),
    (
        SED,
        Q,
        "Is returning an exit code from q standard sed?",
        ["The ability to return an exit code from the ‘sed’ script is a GNU ‘sed’ extension."],
    ),
    (
        SED,
        Q,
        "How do I substitute on every third line?",
        ["perform substitution on every 3rd line (i.e. two ‘n’ commands skip two lines)"],
    ),
    (
        SED,
        Q,
        "How can one address trigger several commands?",
        ["A group of commands may be enclosed between ‘{’ and ‘}’ characters."],
    ),
    (
        SED,
        Q,
        "When is the text from the a command actually output?",
        ["to be output at the end of the current cycle, or when the next input line is read"],
    ),
    (
        SED,
        Q,
        "Can the i command and its text be given as separate -e options?",
        ["As a GNU extension, the ‘i’ command and TEXT can be separated into two ‘-e’ parameters"],
    ),
    (
        SED,
        Q,
        "After c replaces a line, do later commands still run on it?",
        [
            "In the following example, the ‘c’ starts a new cycle and the substitution command is not performed on the replaced text"
        ],
    ),
    (
        SED,
        Q,
        "How can I see non-printable characters in the pattern space?",
        [
            "Print the pattern space in an unambiguous form: non-printable characters (and the ‘\\’ character) are printed in C-style escaped form"
        ],
    ),
    (
        SED,
        Q,
        "What happens with r if the file doesn't exist?",
        [
            "Note that if FILENAME cannot be read, it is treated as if it were an empty file, without any error indication."
        ],
    ),
    (
        SED,
        Q,
        "How do I write output to standard error from sed?",
        [
            (
                "two special values of FILENAME are supported: ‘/dev/stderr’, which writes the result to the standard error",
                1,
            )
        ],
    ),
    (
        SED,
        Q,
        "What does D do when there is no newline in the pattern space?",
        [
            (
                "If pattern space contains no newline, start a normal new cycle as if the ‘d’ command was issued.",
                1,
            )
        ],
    ),
    (
        SED,
        Q,
        "When should I use something other than sed for programming?",
        [
            "In most cases, use of these commands indicates that you are probably better off programming in something like ‘awk’ or Perl."
        ],
    ),
    (
        SED,
        K,
        "GNU-specific commands portability",
        [
            "These commands are specific to GNU ‘sed’, so you must use them with care and only when you are sure that hindering portability is not evil."
        ],
    ),
    (
        SED,
        Q,
        "How do I insert one line of another file after each input line?",
        [
            (
                "Queue a line of FILENAME to be read and inserted into the output stream at the end of the current cycle",
                1,
            )
        ],
    ),
    (
        SED,
        Q,
        "How do I make a script fail on non-GNU sed?",
        [("This command does nothing, but makes ‘sed’ fail if GNU ‘sed’ extensions are not supported", 1)],
    ),
    (
        SED,
        Q,
        "What is the fastest way to clear the pattern space?",
        [
            "This command empties the content of pattern space. It is usually the same as ‘s/.*//’, but is more efficient"
        ],
    ),
    (
        SED,
        Q,
        "Why did my w command create a file with a weird name?",
        [
            "The ‘r’,‘R’,‘w’,‘W’ commands parse the filename until end of the line. If whitespace, comments or semicolons are found, they will be included in the filename"
        ],
    ),
    (
        SED,
        Q,
        "How do I replace a word only on lines containing another word?",
        ["The following command replaces ‘hello’ with ‘world’ only on lines containing the string ‘apple’"],
    ),
    (
        SED,
        Q,
        "How can I apply a command to all lines except matching ones?",
        [
            "Appending the ‘!’ character to the end of an address specification (before the command letter) negates the sense of the match."
        ],
    ),
    (
        SED,
        Q,
        "How do I select only the odd-numbered lines?",
        ["one would use ‘1~2’ to select the odd-numbered lines and ‘0~2’ for even-numbered lines"],
    ),
    (
        SED,
        Q,
        "Which regex syntax do sed addresses use by default?",
        ["The default regular expression is *note Basic Regular Expression (BRE): BRE syntax."],
    ),
    (
        SED,
        Q,
        "My regex has lots of slashes; is there a way to avoid escaping them?",
        [
            "This is particularly useful if the REGEXP itself contains a lot of slashes, since it avoids the tedious escaping of every ‘/’."
        ],
    ),
    (
        SED,
        K,
        "M modifier multi-line mode ^ $",
        [
            (
                "The ‘M’ modifier to regular-expression matching is a GNU ‘sed’ extension which directs GNU ‘sed’ to match the regular expression in ‘multi-line’ mode.",
                1,
            )
        ],
    ),
    (
        SED,
        Q,
        "Why wasn't a line printed after I changed it with s before /[0-9]/p?",
        [
            "Because the second line is changed before the ‘/[0-9]/’ regex, it will not match and will not be printed"
        ],
    ),
    (
        SED,
        Q,
        "Can a range whose end is a regex match just one line?",
        ["a range will always span at least two lines (except of course if the input stream ends)"],
    ),
    (
        SED,
        Q,
        "How do I print from a line up to the next multiple of 4?",
        [
            "‘ADDR1,~N’ Matches ADDR1 and the lines following ADDR1 until the next line whose input line number is a multiple of N."
        ],
    ),
    (
        SED,
        Q,
        "What is the difference between the D and d commands?",
        [
            "If pattern space contains no newline, start a normal new cycle as if the ‘d’ command was issued. Otherwise, delete text in the pattern space up to the first newline"
        ],
    ),
    (
        SED,
        Q,
        "How do a and i differ, and can both take their text from a second -e?",
        [
            "As a GNU extension, the ‘a’ command and TEXT can be separated into two ‘-e’ parameters",
            "As a GNU extension, the ‘i’ command and TEXT can be separated into two ‘-e’ parameters",
        ],
    ),
    (
        SED,
        Q,
        "What is the difference between r and R?",
        [
            "Note that if FILENAME cannot be read, it is treated as if it were an empty file, without any error indication.",
            ("Queue a line of FILENAME to be read and inserted into the output stream", 1),
        ],
    ),
    # --- transcripts: State of the Union 1941, 1962, 1985 ---
    (
        FDR,
        Q,
        "Why did Roosevelt call the moment unprecedented in 1941?",
        [
            "at no previous time has American security been as seriously threatened from without as it is today"
        ],
    ),
    (
        FDR,
        Q,
        "Which earlier wars did FDR mention in the 1941 address?",
        [
            "We had even engaged in two wars with European nations and in a number of undeclared wars in the West Indies"
        ],
    ),
    (
        FDR,
        Q,
        "Did the Napoleonic wars threaten American independence, according to FDR?",
        [
            "While the Napoleonic struggles did threaten interests of the United States because of the French foothold in the West Indies and in Louisiana"
        ],
    ),
    (
        FDR,
        Q,
        "What did Roosevelt say about the Treaty of Versailles?",
        [
            'We should remember that the Peace of 1919 was far less unjust than the kind of "pacification" which began even before Munich'
        ],
    ),
    (
        FDR,
        Q,
        "Why was a direct invasion of the US not a danger in 1941?",
        ["Obviously, as long as the British Navy retains its power, no such danger exists."],
    ),
    (
        FDR,
        Q,
        "What did Roosevelt promise to nations resisting aggression?",
        [
            "we are committed to full support of all those resolute peoples, everywhere, who are resisting aggression"
        ],
    ),
    (
        FDR,
        Q,
        "Was defense policy an issue in the 1940 election?",
        [
            "In the recent national election there was no substantial difference between the two great parties in respect to that national policy."
        ],
    ),
    (
        FDR,
        Q,
        "Was FDR happy with how fast the armament program was going?",
        ["I am not satisfied with the progress thus far made."],
    ),
    (
        FDR,
        Q,
        "What did Roosevelt say about keeping defense information secret from the public?",
        [
            "there is certain information, as the Congress itself will readily recognize, which, in the interests of our own security"
        ],
    ),
    (
        FDR,
        Q,
        "What did FDR pledge to send the democracies?",
        ["We shall send you, in ever-increasing numbers, ships, planes, tanks, guns."],
    ),
    (
        FDR,
        Q,
        "Why shouldn't the nation's hands be tied in an emergency?",
        ["The Nation's hands must not be tied when the Nation's life is in danger."],
    ),
    (
        FDR,
        Q,
        "What do people expect from a democracy's political and economic systems?",
        ["Equality of opportunity for youth and for others."],
    ),
    (
        FDR,
        Q,
        "How did Roosevelt want to pay for the defense program?",
        [
            "I shall recommend that a greater portion of this great defense program be paid for from taxation than we are paying today"
        ],
    ),
    (
        FDR,
        Q,
        "Is the world of four freedoms a distant dream?",
        [
            "That is no vision of a distant millennium. It is a definite basis for a kind of world attainable in our own time and generation."
        ],
    ),
    (
        FDR,
        K,
        "four freedoms speech freedom of speech worship want fear",
        ["The first is freedom of speech and expression"],
    ),
    (
        FDR,
        Q,
        "What did Roosevelt say about profiteering from rearmament?",
        ["No person should try, or be allowed, to get rich out of this program"],
    ),
    (JFK, Q, "Who did Kennedy mourn at the start of his 1962 address?", ['"Mister Sam" Rayburn is gone.']),
    (
        JFK,
        Q,
        "How many labor surplus areas were left after the recovery in 1961?",
        ["the number of major surplus labor areas has declined from 101 to 60"],
    ),
    (
        JFK,
        Q,
        "What change to unemployment insurance did Kennedy ask for?",
        ["a permanent strengthening of our unemployment compensation system"],
    ),
    (
        JFK,
        Q,
        "What did Kennedy propose for American cities?",
        ["we have stepped up existing urban renewal and housing programs"],
    ),
    (
        JFK,
        Q,
        "What did JFK say about civil rights and executive powers?",
        [
            "This administration has shown as never before how much could be done through the full use of Executive powers"
        ],
    ),
    (
        JFK,
        Q,
        "What consumer protection changes were proposed in 1962?",
        ["I shall recommend improvements in the Food and Drug laws"],
    ),
    (
        JFK,
        Q,
        "What education bill did Kennedy want passed?",
        [
            "I sent to the Congress last year a proposal for Federal aid to public school construction and teachers' salaries."
        ],
    ),
    (
        JFK,
        Q,
        "What kind of world did Kennedy say America's foreign policy aims for?",
        ["a peaceful world community of free and independent states"],
    ),
    (
        JFK,
        Q,
        "What was planned for the Army reserves and National Guard divisions?",
        ["two Army Divisions will, I hope, replace those Guard Divisions on duty"],
    ),
    (
        JFK,
        Q,
        "Why was the United Nations running a deficit?",
        ["have created a serious deficit by refusing to pay their share of special UN assessments"],
    ),
    (
        JFK,
        K,
        "Alliance for Progress Latin America",
        ["The Alliance for Progress is being rapidly transformed from proposal to program."],
    ),
    (
        JFK,
        Q,
        "What does the Food for Peace program do?",
        ["A newly-expanded Food for Peace Pro-. gram is feeding the hungry of many lands"],
    ),
    (
        JFK,
        Q,
        "What did Kennedy say about West Berlin?",
        [
            "the freedom of two million West Berliners would not be surrendered either to force or through appeasement"
        ],
    ),
    (
        JFK,
        Q,
        "How did the administration tackle the balance of payments deficit?",
        [
            "We did not--and could not--achieve these gains through import restrictions, troop withdrawals, exchange controls, dollar devaluation"
        ],
    ),
    (
        JFK,
        Q,
        "Why did Kennedy say 1962 was the year to decide on trade?",
        ["The Reciprocal Trade Act is expiring. We need a new law"],
    ),
    (
        JFK,
        Q,
        "By how much could tariffs be cut under Kennedy's trade bill?",
        ["the bill will permit a gradual reduction of duties up to 50 percent"],
    ),
    (
        RR,
        Q,
        "What did Reagan call the guiding stars of America?",
        ["We believe faith and freedom must be our guiding stars"],
    ),
    (
        RR,
        Q,
        "Which Lincoln quote did Reagan use about the Declaration of Independence?",
        [
            "Something in [the] Declaration giving liberty, not alone to the people of this country, but hope to the world for all future time."
        ],
    ),
    (
        RR,
        Q,
        "What were Europeans calling the US economic recovery?",
        ['In Europe, they\'re calling it "the American Miracle."'],
    ),
    (RR, Q, "How much had tax rates been cut by 1985?", ["We have cut tax rates by almost 25 percent"]),
    (
        RR,
        Q,
        "Who did Reagan put in charge of tax reform legislation?",
        ["I am instructing Treasury Secretary James Baker"],
    ),
    (
        RR,
        Q,
        "What birthday present did Reagan suggest to Tip O'Neill?",
        ["create a new generation of entrepreneurs by passing enterprise zones this year"],
    ),
    (
        RR,
        Q,
        "What share of the federal budget goes to defense now compared with the past?",
        ["defense spending took about half the Federal budget. Today it takes less than a third."],
    ),
    (
        RR,
        Q,
        "What constitutional amendment did Reagan ask for on spending?",
        ["an amendment mandating the Federal Government spend no more than it takes in"],
    ),
    (
        RR,
        Q,
        "What did Reagan announce about space in 1985?",
        ["Now we're going to develop a permanently manned space station"],
    ),
    (
        RR,
        Q,
        "What private initiatives did Reagan praise?",
        ["corporations adopting schools, and communities pulling together to help the neediest among us"],
    ),
    (
        RR,
        Q,
        "What happened to SAT scores according to Reagan?",
        ["For 20 years scholastic aptitude test scores of our high school students went down"],
    ),
    (
        RR,
        Q,
        "What crime legislation did Reagan urge the House to pass?",
        [
            "enact proposals permitting use of all reliable evidence that police officers acquire in good faith"
        ],
    ),
    (
        RR,
        K,
        "Peacekeeper missile vote",
        ["Your vote this spring on the Peacekeeper missile will be a critical test of our resolve"],
    ),
    (
        RR,
        Q,
        "What did Reagan say freedom is?",
        [
            "Freedom is not the sole prerogative of a chosen few; it is the universal right of all God's children."
        ],
    ),
    (
        RR,
        Q,
        "How poor are people in the Third World, according to Reagan's speech?",
        ["average per capita income of $650 a year"],
    ),
    (
        RR,
        Q,
        "Who was the Vietnamese girl Reagan mentioned?",
        ["Ten years ago a young girl left Vietnam with her family"],
    ),
    (
        JFK,
        Q,
        "What did Kennedy say about feeding the hungry abroad, and about the Alliance for Progress?",
        [
            "A newly-expanded Food for Peace Pro-. gram is feeding the hungry of many lands",
            "The Alliance for Progress is being rapidly transformed from proposal to program.",
        ],
    ),
    # --- scientific abstracts: R package papers ---
    (
        ABS,
        Q,
        "Which book was the first on applied econometrics using R?",
        ['"Applied Econometrics with R" is the first book on applied econometrics using the R system'],
    ),
    (
        ABS,
        Q,
        "What limitations of standard model formulas does the Formula package address?",
        ["they have certain limitations including being confined to single responses"],
    ),
    (
        ABS,
        Q,
        "Which kinds of data can coin's permutation tests handle?",
        [
            "providing a huge class of independence tests for nominal, ordered, numeric, and censored data as well as multivariate data at mixed scales"
        ],
    ),
    (
        ABS,
        Q,
        "What do Rasch models extend in the eRm package?",
        ["We start with a methodological introduction to extended Rasch models"],
    ),
    (
        ABS,
        Q,
        "How do predictor effect plots show a regression model?",
        [
            "Predictor effect displays visualize the response surface of complex regression models by averaging and conditioning"
        ],
    ),
    (
        ABS,
        Q,
        "Which example data set is used to illustrate resampling diagnostics for mixture models?",
        ["The use of the methods is illustrated with an artificial example and the seizure data set."],
    ),
    (
        ABS,
        Q,
        "Which algorithm does FlexMix use to fit mixtures of regressions?",
        ["three variants of the EM algorithm can be used for parameter estimation"],
    ),
    (
        ABS,
        Q,
        "What was added in version 2 of flexmix?",
        [
            "Now concomitant variable models as well as varying and constant parameters for the component specific"
        ],
    ),
    (
        ABS,
        K,
        "finite mixture random intercept model",
        [
            "This model class includes random intercept models where the random part is modelled by a finite mixture"
        ],
    ),
    (
        ABS,
        Q,
        "Which kernel methods are implemented in kernlab?",
        [
            "implementations of support vector machines and the relevance vector machine, Gaussian processes, a ranking algorithm, kernel PCA"
        ],
    ),
    (
        ABS,
        Q,
        "How does lme4 fit linear mixed models computationally?",
        [
            "based on sparse matrix methods, especially the Cholesky decomposition of sparse positive-semidefinite matrices"
        ],
    ),
    (
        ABS,
        Q,
        "What types of mixed models can lme4 fit?",
        ["including linear mixed models, generalized linear mixed models and nonlinear mixed models"],
    ),
    (
        ABS,
        Q,
        "How do you specify random effects in lmer?",
        [
            "the model is described in an lmer call by a formula, in this case including both fixed- and random-effects terms"
        ],
    ),
    (
        ABS,
        Q,
        "What are the steps of model-based recursive partitioning?",
        [
            (
                "(1) fit a parametric model to a data set, (2) test for parameter instability over a set of partitioning variables",
                1,
            )
        ],
    ),
    (
        ABS,
        Q,
        "What tree methods does the party package include?",
        [
            "This includes conditional inference trees (ctree), conditional inference forests (cforest) and parametric model trees (mob)."
        ],
    ),
    (
        ABS,
        Q,
        "What prediction does a tree with constant fits make in a terminal node?",
        [
            "all observations that are predicted to be in the same terminal node also receive the same prediction"
        ],
    ),
    (
        ABS,
        Q,
        "What response types can conditional inference trees handle?",
        [
            "It is applicable to all kinds of regression problems, including nominal, ordinal, numeric, censored as well as multivariate"
        ],
    ),
    (
        ABS,
        Q,
        "What does partykit offer for representing trees from other algorithms?",
        [
            "Basic infrastructure for representing trees (inferred by any algorithm) so that unified print/plot/predict methods are available."
        ],
    ),
    (
        ABS,
        Q,
        "Why was the plm package written?",
        ["most of the models used are difficult to estimate with only plain `R`"],
    ),
    (
        ABS,
        Q,
        "Which count data models are implemented in pscl besides Poisson?",
        ["a new implementation of hurdle and zero-inflated regression models"],
    ),
    (
        ABS,
        Q,
        "What does genoud combine to solve hard optimization problems?",
        ["combines evolutionary algorithm methods with a derivative-based (quasi-Newton) method"],
    ),
    (
        ABS,
        Q,
        "In which fields are clustered standard errors used a lot?",
        ["especially in economics, political sciences, and other social sciences"],
    ),
    (
        ABS,
        Q,
        "What are sandwich covariance estimators good for?",
        ["performing inference that is robust to certain types of model misspecification"],
    ),
    (
        ABS,
        K,
        "HAC covariance autocorrelation heteroskedasticity",
        [
            "Data described by econometric models typically contains autocorrelation and/or heteroskedasticity of unknown form"
        ],
    ),
    (
        ABS,
        Q,
        "Why is seriation hard to solve exactly?",
        ["Caused by the problem's combinatorial nature, it is hard to solve for all but very small sets."],
    ),
    (
        ABS,
        Q,
        "Which structural change tests does strucchange cover?",
        [
            "tests for structural change in linear regression models from the generalized fluctuation test framework as well as from the $F$ test (Chow test) framework"
        ],
    ),
    (
        ABS,
        Q,
        "Which diversity methods does vegan document?",
        ["The methods discussed include common diversity indices and rarefaction"],
    ),
    (
        ABS,
        Q,
        "Which ordination methods are used as examples in the vegan introduction?",
        [
            "Unconstrained ordination uses as examples detrended correspondence analysis and non-metric multidimensional scaling"
        ],
    ),
    (
        ABS,
        Q,
        "What does the read.zoo function accept as input?",
        [
            "The function read.zoo function expects either a text file (or text connection) as input or data frame."
        ],
    ),
    (
        ABS,
        Q,
        "What are zoo's key design goals?",
        [
            'Its key design goals are independence of a particular index/time/date class and consistency with base R and the "ts" class'
        ],
    ),
    (
        ABS,
        Q,
        "How do the party and partykit implementations of model-based partitioning compare?",
        [
            "The party package provides the function mob() implementing a recently suggested algorithm for model-based recursive partitioning",
            "MOB is a generic algorithm for model-based recursive partitioning",
        ],
    ),
    (
        ABS,
        Q,
        "Which packages deal with robust covariance estimation and which with structural change?",
        [
            "Sandwich covariance matrix estimators are a popular tool in applied regression modeling",
            "reviews tests for structural change in linear regression models",
        ],
    ),
    # --- finance: keyword and short questions on the latest filings (tables and text) ---
    (
        NVDA,
        K,
        "NVIDIA net income third quarter fiscal 2024",
        ["Net income | $ | 9,243 $ | 680 $ | 17,475 $ | 2,954"],
    ),
    (
        NVDA,
        Q,
        "How much did NVIDIA spend on R&D last quarter?",
        ["Research and development | 2,294 | 1,945 | 6,210 | 5,387"],
    ),
    (
        AMZN,
        K,
        "Amazon diluted earnings per share",
        ["Diluted earnings per share | $ | 0.28 $ | 0.94 $ | (0.29) $ | 1.89"],
    ),
    (
        AMZN,
        Q,
        "What was Amazon's operating income this quarter?",
        ["Operating income | 2,525 | 11,188 | 9,511 | 23,643"],
    ),
    (
        INTC,
        Q,
        "Did Intel make a profit in the third quarter of 2023?",
        ["Net income (loss) | 310 | 1,019 | (985) | 8,678"],
    ),
    (
        INTC,
        K,
        "Intel operating income loss Q3 2023",
        ["Operating income (loss) | (8) | (175) | (2,492) | 3,466"],
    ),
    (MSFT, K, "Microsoft total revenue quarter ended September 30 2023", ["Total revenue | 56,517 | 50,122"]),
    (MSFT, Q, "What was Microsoft's net income for the quarter?", ["Net income | $ | 22,291 $ | 17,556"]),
    (
        MSFT,
        Q,
        "When did Microsoft close the Activision Blizzard acquisition?",
        ["On October 13, 2023, we completed our acquisition of Activision Blizzard, Inc."],
    ),
    (MSFT, K, "Microsoft operating income", ["Operating income | 26,895 | 21,518"]),
    (
        AAPL,
        Q,
        "How many Apple shares were outstanding in July 2023?",
        ["15,634,232,000 shares of common stock were issued and outstanding as of July 21, 2023."],
    ),
    (AAPL, K, "Apple diluted EPS June quarter 2023", ["Diluted | $ | 1.26 $ | 1.20 $ | 4.67 $ | 4.82"]),
    (
        AAPL,
        Q,
        "How much income tax did Apple provide for in the June 2023 quarter?",
        ["Provision for income taxes | 2,852 | 3,624 | 12,699 | 15,364"],
    ),
    (
        AAPL,
        Q,
        "How did Apple's product sales compare with its services sales last quarter?",
        [
            "Products | $ | 60,584 $ | 63,355 $ | 230,901 $ | 245,241",
            ("Services | 21,213 | 19,604 | 62,886 | 58,941", 0),
        ],
    ),
    (
        AMZN,
        Q,
        "Does Amazon expect its technology and infrastructure costs to keep growing?",
        [
            "We expect spending in technology and infrastructure to increase over time as we continue to add employees and infrastructure."
        ],
    ),
    (
        AMZN,
        Q,
        "Are Amazon employees trying to unionize?",
        ["We are also subject to labor union efforts to organize groups of our employees from time to time."],
    ),
    (
        INTC,
        Q,
        "What dividend did Intel's board declare in October 2023?",
        ["In October 2023 our Board of Directors declared a quarterly dividend"],
    ),
    # --- a few more ---
    (
        ABS,
        Q,
        "What kinds of models does the Applied Econometrics with R book cover?",
        ["It presents hands-on examples for a wide range of econometric models"],
    ),
    (
        ABS,
        Q,
        "Which zoo vignette has code snippets for daily financial data?",
        ["several nifty code snippets when dealing with (daily) financial data"],
    ),
    (
        FOLDOC,
        Q,
        "Which organisation does Tim Berners-Lee direct?",
        ["He is Director of the {World Wide Web Consortium}."],
    ),
    (
        BOOK,
        K,
        "Kellynch Hall let to Admiral Croft",
        ["Admiral Croft was a very hale, hearty, well-looking man"],
    ),
]
