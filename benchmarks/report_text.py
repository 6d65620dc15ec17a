"""Text of the fictional annual report made by ``make_report_pdf.py``.

Everything here is invented: Tallis Ridge Water Systems, Inc., its people,
places and figures do not exist. Markup, one block per blank-line-separated
paragraph:

``# `` Heading 1 (new page), ``## `` Heading 2, ``### `` Heading 3, ``#### `` Heading 4,
``!! `` a risk-factor caption (bold italic body text, not a heading),
``* `` a bullet item, ``> `` a boxed note, ``~ `` a centred italic line,
``[table:KEY]`` a table from ``make_report_pdf.tables()``,
``[cols2]`` / ``[/cols2]`` a two-column section, ``**bold**`` inline.
"""

COMPANY = "Tallis Ridge Water Systems, Inc."

BODY = r"""
# Cautionary Note Regarding Forward-Looking Statements

This Annual Report on Form 10-K contains forward-looking statements that involve risks and
uncertainties. All statements other than statements of historical fact, including statements about our
expected revenue, gross margin, operating expenses, capital expenditures, the timing of municipal
procurement cycles, the adoption of our ClearLedger monitoring platform and the benefits we expect from
the consolidation of our manufacturing footprint, are forward-looking statements. Words such as
"anticipate," "believe," "continue," "estimate," "expect," "intend," "may," "plan," "project," "should"
and "will," and their negatives, are intended to identify these statements.

Forward-looking statements are based on our management's beliefs and assumptions and on information
currently available to us. They are subject to a number of risks, uncertainties and assumptions,
including those described under "Item 1A. Risk Factors" and "Item 7. Management's Discussion and
Analysis of Financial Condition and Results of Operations." Actual results could differ materially from
those expressed or implied. You should not place undue reliance on forward-looking statements, which
speak only as of the date of this report. Except as required by law, we undertake no obligation to
update any of them.

## Glossary of Selected Terms

Throughout this report we use several terms of art from the water-treatment industry. The short
definitions below are provided for convenience and are not intended to be technically complete.

[cols2]

**Backlog.** The value of firm purchase orders and signed contracts for which products have not yet been
shipped or services not yet performed, excluding options that the customer has not exercised.

**Book-to-bill ratio.** Orders received in a period divided by revenue recognised in the same period. A
ratio above one indicates that backlog is growing.

**ClearLedger.** Our subscription software platform that collects sensor data from installed systems,
forecasts membrane fouling and schedules maintenance visits.

**Design-build.** A procurement method in which a utility awards a single contract covering both the
engineering design and the construction of a facility.

**Flux.** The volume of water that passes through a unit area of membrane per unit of time, usually
expressed in litres per square metre per hour.

**Installed base.** The number of our treatment trains in service at customer sites, whether or not they
are covered by a service agreement.

**Membrane module.** A replaceable cartridge of hollow-fibre or spiral-wound membrane that performs the
filtration step inside a treatment train.

**Net revenue retention.** Annual recurring revenue at the end of a period from customers who were
subscribers twelve months earlier, divided by the annual recurring revenue from the same customers at
the start of the period.

**Treatment train.** A complete, skid-mounted set of pumps, vessels, membranes, instruments and controls
that treats water at a stated capacity.

**Ultraviolet (UV) disinfection.** The inactivation of micro-organisms by exposure to ultraviolet light,
used as a final barrier after filtration.

[/cols2]

# PART I

## Item 1. Business

### Overview

Tallis Ridge Water Systems, Inc. designs, manufactures and services equipment that makes water safe to
drink and clean enough to reuse. Our treatment trains combine low-pressure membrane filtration,
ultraviolet disinfection and the controls that tie them together, and they are installed at more than
2,900 municipal and industrial sites in North America and Western Europe. Since 2019 we have also sold
ClearLedger, a subscription platform that monitors installed equipment and tells operators when
membranes need cleaning or replacement.

We were incorporated in Ohio in 1987 as a maker of pressure vessels for small rural utilities and
reincorporated in Delaware in 2004, in connection with our initial public offering. Our principal
executive offices are located in Columbus, Ohio. In fiscal 2025 we generated revenue of $1,284.6
million, an increase of 9.0% over fiscal 2024, and net income of $115.5 million.

We operate through three reportable segments. **Municipal Systems** sells treatment trains and
disinfection equipment to public water and wastewater utilities, generally through engineering firms and
contractors. **Industrial Solutions** sells process-water and reuse systems to manufacturers,
principally in the food and beverage, semiconductor, pharmaceutical and power-generation industries.
**Services and Analytics** provides replacement membrane modules, spare parts, field service, operator
training and ClearLedger subscriptions to the installed base of both product segments.

### Our Strategy

Our strategy rests on a simple observation: a treatment train that we sell today will remain in service
for twenty-five years or more, and over that life the customer will spend roughly as much on membranes,
parts and service as it spent on the equipment itself. We therefore aim to win installations on
engineering merit, to make each installation easier to run than a competitor's, and to earn a durable
share of its lifetime spending. The principal elements of this strategy are the following.

* Extend our lead in low-pressure membranes by reducing the energy required per cubic metre treated,
which is the largest operating cost our customers control.

* Convert the installed base to service agreements. At the end of fiscal 2025, 41% of our installed
treatment trains were covered by a multi-year agreement, compared with 36% a year earlier.

* Grow ClearLedger subscriptions, which give us earlier notice of our customers' needs and which we
believe make our service agreements more valuable.

* Enter adjacent industrial markets, such as lithium processing and data-centre cooling, where water
reuse is becoming a condition of obtaining operating permits.

### Products and Services

Our product lines are designed to share components and controls, so that an operator trained on one can
run the others and a single spare-parts inventory supports a mixed installation.

**Meridian ultrafiltration trains.** Meridian trains use hollow-fibre membranes with a nominal pore size
of 0.02 micron to remove suspended solids, bacteria and protozoan cysts. Standard trains treat from 0.5
to 12 million gallons per day, and larger plants combine several trains under a common control system.
Meridian accounted for approximately 31% of our fiscal 2025 revenue.

**Sentinel UV systems.** Sentinel reactors provide a disinfection barrier after filtration. Their lamp
drivers adjust output to the measured transmittance of the water, which reduces power consumption in
clear-water conditions. Sentinel is sold both with Meridian trains and separately to utilities that
already operate filtration equipment.

**Keel reuse systems.** Keel systems combine ultrafiltration, reverse osmosis and advanced oxidation for
industrial customers who wish to recycle process water rather than discharge it. Each Keel system is
engineered for the customer's site, and projects typically take nine to eighteen months from order to
commissioning.

**Services and ClearLedger.** Our service business sells replacement membrane modules, which typically
last seven to ten years, as well as pumps, valves and instruments, scheduled maintenance, emergency
call-outs and operator training. ClearLedger subscriptions are priced per connected treatment train and
are generally billed annually in advance.

### Customers and Markets

Our municipal customers are water and wastewater utilities of every size, from villages serving a few
thousand residents to regional authorities serving several million. Municipal purchases are usually
financed with public funds and are awarded through competitive bidding or qualifications-based
selection, often years after a project is first planned. Our industrial customers are generally large
manufacturers that buy through their own engineering departments or through engineering, procurement and
construction firms.

No single customer accounted for 10% or more of our revenue in fiscal 2025, 2024 or 2023. Customers in
the United States accounted for 72% of our revenue in fiscal 2025, customers in Canada for 9% and
customers in Europe for 16%, with the remainder spread across other regions.

### Backlog

Our backlog was $918.5 million at December 31, 2025, compared with $861.9 million a year earlier.
Backlog includes only orders for which we have a signed contract or purchase order and, for municipal
projects, for which the customer has confirmed that funding is in place. Municipal customers may delay
projects after we have booked them, and contracts generally allow customers to cancel for convenience
upon payment of our costs incurred and a reasonable profit. For these reasons backlog is not necessarily
a reliable indicator of future revenue.

### Seasonality

Our revenue is usually lowest in the first quarter and highest in the fourth. Construction work at
municipal sites slows in winter in the northern United States, Canada and Europe, and many utilities and
industrial customers try to complete projects and spend remaining budgets before the end of the calendar
year. Service revenue is less seasonal, although membrane replacements tend to be scheduled in spring
and autumn, when demand for water is lower.

### Sales and Marketing

We sell through a direct sales force of approximately 240 people organised by region and by industry,
supported by application engineers who help consulting engineers prepare specifications. In smaller
municipal markets we also work with independent manufacturers' representatives, who are paid on
commission. Our service business is sold largely by the field service organisation itself, whose
technicians identify needs during scheduled visits.

### Competition

The markets in which we compete are fragmented and highly competitive. In municipal filtration we
compete with the water divisions of several large diversified industrial companies, with specialised
membrane manufacturers and with regional system integrators that assemble trains from purchased
components. In industrial reuse we also compete with engineering firms that design and build treatment
plants themselves. We believe that the principal competitive factors in our markets are life-cycle cost,
demonstrated performance under comparable water conditions, the availability of local service, and the
quality of our relationships with the consulting engineers who write specifications.

### Research and Development

Our research and development activities are concentrated at our technology centre in Dayton, Ohio, and
at a smaller membrane laboratory in Tilburg, the Netherlands. Current programmes focus on a new
generation of hollow fibre with higher permeability, on controls that optimise backwash cycles using
ClearLedger data, and on reducing the cost of reuse systems for mid-sized industrial plants. Research
and development expense was $98.4 million in fiscal 2025, $91.2 million in fiscal 2024 and $84.7 million
in fiscal 2023.

### Manufacturing and Supply Chain

We manufacture membrane modules in Dayton, Ohio, and in Tilburg, and we assemble treatment trains in
Dayton, in Reno, Nevada, and in Monterrey, Mexico. During fiscal 2024 we closed our smaller assembly
plant in Erie, Pennsylvania, and transferred its work to Dayton and Monterrey; the related restructuring
is described in Note 9 to our consolidated financial statements.

The principal raw materials we use are polymer resins for membrane fibre, stainless steel, pumps,
valves, electronic instruments and UV lamps. Most are available from several suppliers, but we purchase
certain membrane resins and lamp assemblies from a single qualified source. We maintain safety stocks of
these items and have qualified second sources for some of them.

### Intellectual Property

We rely on a combination of patents, trade secrets, trademarks and contractual protections. At December
31, 2025, we held 186 issued patents and had 47 pending applications in the United States and other
jurisdictions, most relating to membrane chemistry, module construction and control methods. We do not
believe that any single patent is material to our business as a whole. Meridian, Sentinel, Keel and
ClearLedger are registered trademarks of Tallis Ridge.

### Government Regulation

Our products are designed to help customers comply with drinking-water and discharge regulations, and
demand for them is influenced by changes in those regulations and in the public funding available to
meet them. Equipment installed in public water systems must generally be certified to recognised
health-effects standards, and many states require pilot testing before a new technology may be used in a
public plant. Our operations are also subject to laws governing workplace safety, the handling of
chemicals, export controls and anti-corruption. We do not currently expect the cost of complying with
these laws to have a material effect on our capital expenditures, earnings or competitive position.

### Human Capital

At December 31, 2025, we employed approximately 3,420 people, of whom 2,610 were in the United States,
310 in Mexico, 380 in Europe and 120 in Canada. Approximately 14% of our employees, all of them at our
Dayton and Tilburg plants, are represented by labour unions or works councils. We consider our relations
with our employees to be good.

We measure the safety of our operations by the total recordable incident rate, which was 0.84 per 100
full-time workers in fiscal 2025, compared with 1.02 in fiscal 2024. We offer every employee at least
forty hours of paid training a year, and in fiscal 2025 we expanded the apprenticeship programme for
field service technicians that we began in 2022.

### Available Information

Our website address is included here for reference only; the information on our website is not part of
this report. We make available free of charge on our website our annual reports on Form 10-K, quarterly
reports on Form 10-Q, current reports on Form 8-K and amendments to those reports as soon as reasonably
practicable after we file them with, or furnish them to, the Securities and Exchange Commission.

## Item 1A. Risk Factors

An investment in our common stock involves risks. You should consider carefully the risks described
below, together with the other information in this report, before deciding to invest. If any of these
risks occurs, our business, financial condition and results of operations could be harmed, and the
trading price of our common stock could decline.

### Risks Related to Our Business and Industry

!! Our municipal revenue depends on public funding, which can be delayed or reduced.

Most of our municipal customers pay for new equipment with bond proceeds, state revolving loans or
federal grants. When interest rates rise, when tax revenue falls or when grant programmes are delayed,
utilities postpone projects, sometimes for several years. In fiscal 2023 the delay of two state loan
programmes reduced our Municipal Systems orders by an estimated $40 million. A prolonged reduction in
public funding for water infrastructure would reduce our revenue and could leave us with excess
manufacturing capacity.

!! Large projects make our results uneven from quarter to quarter.

A small number of large municipal and industrial projects account for a significant share of our product
revenue in any quarter. The timing of these projects depends on permits, construction schedules and
customer decisions that we do not control. As a result, our revenue and operating income may fluctuate
significantly from quarter to quarter, and the results of any one quarter may not be indicative of
future performance.

!! We may not recover cost overruns on fixed-price contracts.

Most of our system contracts are priced at a fixed amount, and we recognise revenue over time as we
incur costs. If our estimates of the cost to complete a contract are too low, because of design changes,
supplier failures, unexpected site conditions or our own errors, we may have to record a loss. Changes
in estimates reduced our gross profit by $6.8 million in fiscal 2025 and by $9.1 million in fiscal 2024.

!! Competition could reduce our prices and margins.

Several of our competitors are much larger than we are and can offer customers broader product lines,
longer payment terms or bundled financing. Others are smaller firms with lower overheads that bid
aggressively for projects in their own regions. If we are unable to differentiate our products on
life-cycle cost and performance, we may have to reduce prices, which would lower our gross margin.

!! We depend on single sources for some critical materials.

We buy certain membrane resins and UV lamp assemblies from one qualified supplier each. Qualifying a new
source for a membrane resin can take more than a year, because any change must be validated against the
certifications our products hold. An interruption in supply from one of these sources could delay
shipments and increase our costs.

!! Failures of our products could expose us to claims and harm our reputation.

Our equipment protects public health. If a system we supplied failed to remove a contaminant, whether
because of a defect, an installation error or the way the customer operated it, we could face warranty
claims, product liability suits and regulatory investigations, and utilities could become reluctant to
specify our products. Our insurance may not cover all such claims.

!! Cyber-attacks on our systems or on ClearLedger could disrupt our customers' operations.

ClearLedger connects to control systems at customer plants. Although it is designed to read data rather
than issue commands, a successful attack on our platform or on the networks it touches could disrupt
water treatment, expose confidential data and lead to claims against us. We describe our approach to
these risks under "Item 1C. Cybersecurity."

!! We may not be able to hire and keep enough skilled field technicians.

Our service business depends on technicians who can install, commission and repair complex equipment at
remote sites. Competition for such people is intense, particularly in the southwestern United States and
in the Netherlands. If we cannot recruit and train technicians quickly enough, we may be unable to meet
our response-time commitments under service agreements, which could lead to penalties and lost renewals.

!! Acquisitions could disrupt our business and fail to deliver the expected benefits.

We have grown in part through acquisitions, and we expect to continue to evaluate them. Acquisitions
involve risks, including difficulties in integrating products, people and systems, the diversion of
management's attention, the assumption of unknown liabilities and the possibility that we pay more than
a business turns out to be worth. Goodwill and intangible assets represented 31% of our total assets at
December 31, 2025, and an impairment would reduce our earnings.

!! Our international operations expose us to additional risks.

We manufacture products in Mexico and the Netherlands and sell them in more than twenty countries. Our
international operations are subject to changes in trade policy and tariffs, fluctuations in exchange
rates, differing labour laws, difficulties in enforcing contracts and the burden of complying with many
legal systems. A tariff on goods moving between Mexico and the United States, for example, would
increase the cost of the treatment trains that we assemble in Monterrey.

### Risks Related to Regulation and Legal Matters

!! Changes in environmental regulation could reduce demand for our products.

Much of the demand for our municipal products arises from regulations that set limits on contaminants in
drinking water and on the quality of wastewater discharged to rivers and lakes. If regulators relax
these limits, extend compliance deadlines or decline to adopt new limits that are now proposed,
utilities may defer or cancel projects.

!! We could incur liabilities under environmental, health and safety laws.

Our manufacturing operations use chemicals, including solvents used in membrane production, that are
regulated as hazardous materials. We could be required to pay for the investigation and clean-up of
contamination at sites we own or operate, or at sites to which we sent waste, even if we did not cause
the contamination.

!! Our intellectual property may not be adequately protected.

Our competitors may independently develop technologies that are similar to ours or design around our
patents, and the laws of some countries do not protect intellectual property as fully as those of the
United States. We could also be accused of infringing the patents of others, which could require us to
pay damages or royalties or to redesign our products.

### Risks Related to Our Indebtedness

!! Our indebtedness could limit our flexibility.

At December 31, 2025, we had $512.0 million of outstanding borrowings under our term loan and senior
notes. Our debt agreements contain covenants that limit our ability to incur additional debt, pay
dividends and make acquisitions, and they require us to maintain a maximum ratio of net debt to adjusted
earnings. A breach of these covenants could result in the acceleration of our debt.

!! Rising interest rates increase the cost of our variable-rate debt.

Borrowings under our term loan bear interest at floating rates. Although we have entered into
interest-rate swaps covering part of this debt, an increase of one percentage point in market rates
would have increased our fiscal 2025 interest expense by approximately $1.6 million.

### Risks Related to Ownership of Our Common Stock

!! The price of our common stock may be volatile.

The trading price of our common stock has fluctuated and may continue to fluctuate widely in response to
our quarterly results, large orders or cancellations, announcements by competitors, changes in analysts'
estimates and general market conditions, many of which are beyond our control.

!! Provisions of our charter and Delaware law could discourage a takeover.

Our certificate of incorporation and bylaws authorise our board to issue preferred stock without
stockholder approval and establish advance-notice requirements for stockholder proposals. These
provisions, and Section 203 of the Delaware General Corporation Law, could make it more difficult for a
third party to acquire us, even if an acquisition would benefit our stockholders.

### General Risk Factors

!! Economic downturns could reduce demand from industrial customers.

Industrial capital spending is cyclical. In a recession, manufacturers tend to postpone investments in
water reuse and to defer maintenance, which would reduce both our product and our service revenue.

!! Severe weather and climate change could disrupt our operations.

Floods, storms and extreme heat could damage our plants, interrupt our suppliers and prevent our
technicians from reaching customer sites. At the same time, droughts and changing rainfall patterns are
among the factors that increase demand for our products, so the net effect of climate change on our
business is difficult to predict.

## Item 1B. Unresolved Staff Comments

None.

## Item 1C. Cybersecurity

### Risk Management and Strategy

We maintain a cybersecurity programme based on a recognised industry framework and integrated into our
enterprise risk management process. The programme covers our corporate systems, our plant networks and
the ClearLedger platform. It includes annual risk assessments, vulnerability scanning, penetration tests
of ClearLedger by an outside firm, security reviews of new suppliers, mandatory training for all
employees and a written incident response plan that we rehearse at least twice a year.

### Governance

Our Chief Information Security Officer, who has more than twenty years of experience in industrial
control-system security, leads the programme and reports to our Chief Financial Officer. The Audit
Committee of our board oversees cybersecurity risk and receives a report from the Chief Information
Security Officer at each regular meeting. In fiscal 2025 we did not identify any cybersecurity incident
that materially affected, or is reasonably likely to materially affect, our business.

## Item 2. Properties

Our principal facilities at December 31, 2025, are listed below. We believe that our facilities are
adequate for our current needs and that additional space will be available on reasonable terms if
required.

[table:properties]

## Item 3. Legal Proceedings

From time to time we are involved in legal proceedings arising in the ordinary course of business,
including contract disputes with customers and contractors, warranty claims and employment matters. We
do not believe that the outcome of any pending proceeding will have a material adverse effect on our
financial condition. See Note 11 to our consolidated financial statements.

## Item 4. Mine Safety Disclosures

Not applicable.

# PART II

## Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of
Equity Securities

### Market Information

Our common stock is traded on the Nasdaq Global Select Market under the symbol "TRWS." At February 13,
2026, there were 412 holders of record of our common stock. The actual number of stockholders is
greater, because many shares are held in street name by brokers and other nominees.

### Dividends

We have paid a quarterly cash dividend since 2011. In fiscal 2025 we paid dividends of $0.30 per share
in each quarter, for a total of $1.20 per share. The declaration of future dividends is at the
discretion of our board and depends on our earnings, financial condition and the restrictions in our
debt agreements.

### Issuer Purchases of Equity Securities

The following table summarises our repurchases of common stock during the fourth quarter of fiscal 2025
under the $150 million programme that our board authorised in February 2024.

[table:repurchases]

### Stock Performance Graph

The following table compares the cumulative total return on our common stock over the five years ended
December 31, 2025, with the cumulative total returns of a broad market index and of a peer group of
water-technology companies selected by us. It assumes that $100 was invested on December 31, 2020, and
that all dividends were reinvested. Past performance is not necessarily indicative of future
performance.

[table:performance]

## Item 6. [Reserved]

## Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations

The following discussion should be read together with our consolidated financial statements and the
related notes in Item 8. It compares fiscal 2025 with fiscal 2024; a comparison of fiscal 2024 with
fiscal 2023 can be found in the corresponding section of our Annual Report on Form 10-K for fiscal 2024.

### Overview

Fiscal 2025 was a year of solid growth. Revenue rose 9.0% to $1,284.6 million, driven by strong
deliveries of Meridian trains to municipal customers and by a 12.2% increase in service revenue. Gross
margin improved by 1.2 percentage points to 40.9%, as the consolidation of our assembly plants reduced
fixed costs and as the higher-margin service business grew faster than product sales. Operating income
increased 28.0% to $173.0 million, and diluted earnings per share rose to $2.36 from $1.69.

Orders were $1,341.2 million, for a book-to-bill ratio of 1.04, and backlog at year end was a record
$918.5 million, of which we expect to convert approximately 70% to revenue in fiscal 2026.

### Key Business Metrics

In addition to our financial results, we use the following metrics to evaluate our business. They are
not defined by generally accepted accounting principles, and other companies may calculate similar
measures differently.

[table:metrics]

> **Note on non-GAAP measures.** Adjusted operating income, referred to in this section, excludes
restructuring charges and the amortisation of acquired intangible assets. We present it because
management uses it to assess the performance of our segments and because we believe it helps investors
compare periods. It should be read together with operating income, the most directly comparable GAAP
measure, and not as a substitute for it.

### Results of Operations

The following table sets forth our consolidated results of operations for the periods indicated,
together with each line item as a percentage of revenue.

[table:results]

**Revenue.** Product revenue increased $66.2 million, or 7.8%, to $912.4 million. Municipal Systems
revenue grew 10.4%, reflecting the completion of several large projects whose start had been delayed by
funding programmes in 2023, while Industrial Solutions revenue grew 4.2%, as strong demand from
semiconductor customers was partly offset by the postponement of two food and beverage projects. Service
revenue increased $40.4 million, or 12.2%, to $372.2 million, driven by higher sales of replacement
membranes, new service agreements and a 31% increase in ClearLedger subscription revenue.

**Gross profit.** Gross profit increased $57.2 million to $525.0 million, and gross margin increased to
40.9% from 39.7%. Product gross margin increased to 38.5% from 37.4%, reflecting lower fixed costs after
the closure of the Erie plant and lower freight costs, partly offset by $6.8 million of unfavourable
changes in estimates on fixed-price contracts. Service gross margin increased to 46.7% from 45.6%.

**Research and development.** Research and development expense increased $7.2 million, or 7.9%,
primarily because of additional engineering staff working on our next-generation hollow fibre and on
ClearLedger analytics.

**Selling, general and administrative.** Selling, general and administrative expense increased $17.9
million, or 7.8%, reflecting higher sales commissions on increased orders, the expansion of our field
service organisation and higher incentive compensation. As a percentage of revenue, it decreased to
19.3% from 19.5%.

**Restructuring.** Restructuring charges of $6.2 million in fiscal 2025 and $11.9 million in fiscal 2024
relate to the closure of our Erie assembly plant, and consist mainly of severance, equipment relocation
and lease exit costs. The programme was completed in the third quarter of fiscal 2025.

**Interest expense and income taxes.** Interest expense decreased $3.5 million because we repaid $60.0
million of our term loan during the year. Our effective tax rate was 22.5% in fiscal 2025 and 22.0% in
fiscal 2024.

#### Reconciliation of Non-GAAP Measures

The following table reconciles operating income to adjusted operating income.

[table:nongaap]

### Quarterly Results of Operations

The following table presents unaudited quarterly results for fiscal 2025. In management's opinion, this
information has been prepared on the same basis as the audited financial statements and includes all
adjustments necessary for a fair presentation.

[table:quarterly]

Revenue increased sequentially in each quarter of fiscal 2025, consistent with the seasonal pattern
described in Item 1. Fourth-quarter revenue included $18.4 million from the final acceptance of a large
reuse system for a semiconductor customer in Arizona.

### Segment Results

We evaluate the performance of our segments on the basis of revenue and segment operating income, which
excludes corporate costs, restructuring charges and the amortisation of acquired intangible assets.

[table:segments]

Municipal Systems operating margin increased to 15.1% from 13.0% as higher volume absorbed the fixed
costs of our Dayton and Reno plants. Industrial Solutions operating margin decreased slightly to 11.9%,
reflecting the contract estimate changes discussed above. Services and Analytics operating margin
increased to 24.9%, driven by the growth of ClearLedger, whose incremental costs are low once a customer
is connected.

### Liquidity and Capital Resources

Our principal sources of liquidity are cash generated by operations, cash and cash equivalents, and our
$300 million revolving credit facility, which was undrawn at December 31, 2025. We believe that these
sources will be sufficient to fund our operations, capital expenditures, dividends and debt service for
at least the next twelve months.

#### Cash Flows

Net cash provided by operating activities was $168.9 million in fiscal 2025, compared with $121.4
million in fiscal 2024. The increase reflects higher net income and a smaller increase in working
capital, as collections on large municipal projects caught up with billings. Net cash used in investing
activities was $47.6 million, mainly capital expenditures for membrane production capacity in Dayton.
Net cash used in financing activities was $142.5 million, consisting of $60.0 million of term loan
repayments, $57.9 million of dividends and $27.9 million of share repurchases, partly offset by proceeds
from employee stock plans.

#### Indebtedness

At December 31, 2025, our debt consisted of $162.0 million outstanding under our term loan, which
matures in 2029, and $350.0 million of 5.25% senior notes due 2031. We were in compliance with all of
the covenants in our debt agreements.

#### Contractual Obligations

Our principal contractual obligations at December 31, 2025, were our debt, operating leases and purchase
commitments to suppliers. The following table summarises these obligations by the period in which
payments are due.

[table:obligations]

### Critical Accounting Estimates

The preparation of financial statements requires us to make estimates and judgements that affect the
amounts reported. We consider an estimate critical if it requires assumptions about matters that are
highly uncertain and if different reasonable estimates could have a material effect on our results.

**Revenue recognised over time.** For engineered systems we recognise revenue as we incur costs,
measured against the total expected cost of each contract. Estimating the total cost requires judgement
about labour productivity, material prices and the performance of subcontractors. A 1% change in the
estimated cost to complete our open contracts at year end would have changed fiscal 2025 operating
income by approximately $4.1 million.

**Warranty reserves.** We accrue for the expected cost of warranty claims when we recognise revenue, on
the basis of historical claim rates and specific known issues. Membrane warranties can extend to ten
years, so our estimates depend on assumptions about long-term performance.

**Goodwill.** We test goodwill for impairment annually in the fourth quarter. In fiscal 2025 the
estimated fair value of each reporting unit exceeded its carrying value by more than 30%.

### Recent Accounting Pronouncements

In fiscal 2025 we adopted new guidance that requires more detailed disclosure of segment expenses; its
adoption affected only our disclosures. New guidance that will require the disaggregation of certain
income statement expenses becomes effective for our fiscal 2027 annual report, and we are evaluating its
effect on our disclosures. We do not expect other recently issued accounting guidance to have a material
effect on our financial statements.

## Item 7A. Quantitative and Qualitative Disclosures About Market Risk

We are exposed to market risks from changes in interest rates, foreign-currency exchange rates and
commodity prices. Our interest-rate swaps fix the rate on $100.0 million of our term loan until 2027.
Approximately 25% of our revenue is denominated in currencies other than the U.S. dollar, principally
the euro and the Canadian dollar; a 10% strengthening of the dollar against these currencies would have
reduced fiscal 2025 revenue by approximately $32 million and operating income by approximately $4
million. We buy stainless steel and polymer resins at market prices and generally do not hedge these
purchases.

## Item 8. Financial Statements and Supplementary Data

### Report of Independent Registered Public Accounting Firm

To the Stockholders and the Board of Directors of Tallis Ridge Water Systems, Inc.

**Opinion on the Financial Statements.** We have audited the accompanying consolidated balance sheets of
Tallis Ridge Water Systems, Inc. and subsidiaries (the Company) as of December 31, 2025 and 2024, the
related consolidated statements of operations, stockholders' equity and cash flows for each of the three
years in the period ended December 31, 2025, and the related notes (collectively, the financial
statements). In our opinion, the financial statements present fairly, in all material respects, the
financial position of the Company at December 31, 2025 and 2024, and the results of its operations and
its cash flows for each of the three years in the period ended December 31, 2025, in conformity with
U.S. generally accepted accounting principles.

**Basis for Opinion.** These financial statements are the responsibility of the Company's management.
Our responsibility is to express an opinion on the Company's financial statements based on our audits.
We conducted our audits in accordance with the standards of the Public Company Accounting Oversight
Board (United States). Those standards require that we plan and perform the audit to obtain reasonable
assurance about whether the financial statements are free of material misstatement, whether due to error
or fraud.

**Critical Audit Matter: Estimates of cost to complete on engineered systems contracts.** As described
in Note 2, the Company recognises revenue on engineered systems over time on the basis of costs incurred
relative to total estimated costs. Auditing these estimates was complex because of the judgement
involved in forecasting labour and material costs on long projects. We tested the controls over the
estimation process, compared prior estimates with actual results and, for a sample of contracts,
inspected project documentation and discussed progress with project managers.

Hollins and Marrow LLP, Columbus, Ohio, February 20, 2026. We have served as the Company's auditor since
2004.

### Consolidated Balance Sheets

~ (in thousands, except per share data)

[table:balance]

### Consolidated Statements of Operations

~ (in thousands, except per share data)

[table:operations]

### Consolidated Statements of Cash Flows

### Consolidated Statements of Comprehensive Income

~ (in thousands)

[table:comprehensive]

### Consolidated Statements of Stockholders' Equity

~ (in thousands)

[table:equity]

~ (in thousands)

[table:cashflows]

### Notes to Consolidated Financial Statements

#### Note 1. Organization and Basis of Presentation

Tallis Ridge Water Systems, Inc. and its subsidiaries design, manufacture and service water and
wastewater treatment equipment. The consolidated financial statements include the accounts of the
Company and its wholly owned subsidiaries after elimination of intercompany balances and transactions.
Our fiscal year ends on December 31.

#### Note 2. Revenue Recognition

We recognise revenue when control of goods or services passes to a customer, in the amount we expect to
be entitled to. Standard products and replacement membranes are recognised when shipped. Engineered
systems are recognised over time, measured by costs incurred relative to total estimated costs, because
the customer controls the work in progress and the systems have no alternative use to us. Service
agreements and ClearLedger subscriptions are recognised evenly over the service period. At December 31,
2025, remaining performance obligations were $918.5 million, of which we expect to recognise
approximately 70% within twelve months.

The following table disaggregates our revenue by geographic market, based on the location of the
customer, and by the timing of the transfer of control.

[table:disaggregation]

#### Note 3. Inventories

Inventories are stated at the lower of cost, determined on a first-in, first-out basis, and net
realisable value. At December 31, 2025, inventories consisted of raw materials of $71.4 million, work in
progress of $38.9 million and finished goods of $56.3 million, compared with $66.0 million, $35.2
million and $51.7 million a year earlier.

#### Note 4. Property, Plant and Equipment

Property, plant and equipment is stated at cost less accumulated depreciation, which is computed on a
straight-line basis over estimated useful lives of thirty to forty years for buildings and three to
twelve years for machinery and equipment. Depreciation expense was $38.2 million, $36.9 million and
$35.1 million in fiscal 2025, 2024 and 2023.

#### Note 5. Goodwill and Intangible Assets

Goodwill arose principally from our acquisition of a Dutch membrane manufacturer in 2017 and of a UV
equipment maker in 2020, and is allocated to the Municipal Systems and Industrial Solutions segments.
Intangible assets consist of customer relationships, developed technology and trade names, amortised
over five to fifteen years. Amortisation expense was $9.6 million in fiscal 2025.

#### Note 6. Debt

Our credit agreement provides a term loan, of which $162.0 million was outstanding at December 31, 2025,
and a $300 million revolving facility, both maturing in 2029 and bearing interest at a floating
reference rate plus a margin of 1.25% to 2.00%. Our $350.0 million of 5.25% senior notes are due in 2031
and pay interest semi-annually.

#### Note 7. Income Taxes

Our provision for income taxes consisted of current taxes of $36.1 million and a deferred tax benefit of
$2.6 million in fiscal 2025. Our effective rate differs from the federal statutory rate of 21% mainly
because of state taxes and foreign earnings taxed at higher rates, partly offset by research tax
credits.

#### Note 8. Stock-Based Compensation

We grant restricted stock units and performance share units to employees and directors under our 2021
Equity Incentive Plan. Stock-based compensation expense was $17.4 million in fiscal 2025. At December
31, 2025, 2.9 million shares remained available for future grants.

#### Note 9. Restructuring

In January 2024 we announced the closure of our Erie, Pennsylvania, assembly plant. We recognised
charges of $6.2 million in fiscal 2025 and $11.9 million in fiscal 2024, and the remaining accrual of
$0.8 million at December 31, 2025, is expected to be paid in the first half of fiscal 2026.

#### Note 10. Segment Information

We have three reportable segments, Municipal Systems, Industrial Solutions and Services and Analytics,
as described in Item 1. Our chief operating decision maker is our Chief Executive Officer, who uses
segment operating income to allocate resources. Segment results are presented in Item 7.

#### Note 11. Commitments and Contingencies

We are party to various claims arising in the ordinary course of business. We record a liability when a
loss is probable and can be reasonably estimated. In the opinion of management, the ultimate resolution
of pending matters is not expected to have a material adverse effect on our financial position, results
of operations or cash flows.

#### Note 12. Leases

We lease office space, service centres, warehouses, one assembly plant and vehicles under operating
leases with remaining terms of one to eleven years. Operating lease cost was $11.2 million in fiscal
2025. At December 31, 2025, the weighted-average remaining lease term was 6.1 years and the
weighted-average discount rate was 5.0%. Maturities of our operating lease liabilities were as follows.

[table:leases]

#### Note 13. Earnings per Share

Basic earnings per share is computed by dividing net income by the weighted-average number of common
shares outstanding. Diluted earnings per share also reflects the dilutive effect of restricted stock
units and performance share units, computed using the treasury stock method. Awards covering 0.2 million
shares were excluded from the calculation of diluted earnings per share in fiscal 2025 because their
effect would have been anti-dilutive.

#### Note 14. Product Warranties

We generally warrant our treatment trains against defects in materials and workmanship for one to two
years and our membrane modules for up to ten years, on a pro-rated basis. Changes in our warranty
reserve were as follows.

[table:warranty]

#### Note 15. Fair Value Measurements

Our interest-rate swaps are measured at fair value on a recurring basis using observable market inputs,
and they are classified within Level 2 of the fair value hierarchy. At December 31, 2025, their fair
value was an asset of $2.3 million. The fair value of our senior notes, based on quoted prices in
markets that are not active, was $344.8 million, compared with a carrying value of $346.9 million. The
carrying values of cash, receivables and payables approximate their fair values because of their short
maturities.

#### Note 16. Employee Benefit Plans

We sponsor defined contribution retirement plans for substantially all of our employees in the United
States and Canada, under which we match a portion of employee contributions. Our contributions were
$14.6 million in fiscal 2025, $13.9 million in fiscal 2024 and $12.8 million in fiscal 2023. Employees
in the Netherlands participate in an industry-wide multi-employer pension fund, to which we contributed
$3.1 million in fiscal 2025.

#### Note 17. Subsequent Events

On February 3, 2026, our board declared a quarterly dividend of $0.33 per share, an increase of 10%,
payable on March 13, 2026, to stockholders of record on February 27, 2026. On February 11, 2026, we
signed an agreement to acquire a privately held maker of online water-quality analysers for
approximately $46 million in cash. The acquisition is expected to close in the second quarter of fiscal
2026, subject to customary conditions.

## Item 9. Changes in and Disagreements With Accountants on Accounting and Financial Disclosure

None.

## Item 9A. Controls and Procedures

### Evaluation of Disclosure Controls and Procedures

Our management, with the participation of our Chief Executive Officer and Chief Financial Officer,
evaluated the effectiveness of our disclosure controls and procedures as of December 31, 2025. On the
basis of that evaluation, they concluded that our disclosure controls and procedures were effective at
the reasonable assurance level.

### Management's Report on Internal Control over Financial Reporting

Our management is responsible for establishing and maintaining adequate internal control over financial
reporting. Management assessed the effectiveness of our internal control over financial reporting as of
December 31, 2025, using the criteria of a recognised control framework, and concluded that it was
effective. Our independent registered public accounting firm has issued an attestation report on our
internal control over financial reporting.

### Report of Independent Registered Public Accounting Firm

To the Stockholders and the Board of Directors of Tallis Ridge Water Systems, Inc.

**Opinion on Internal Control over Financial Reporting.** We have audited the internal control over
financial reporting of Tallis Ridge Water Systems, Inc. and subsidiaries as of December 31, 2025, based
on the criteria of a recognised control framework. In our opinion, the Company maintained, in all
material respects, effective internal control over financial reporting as of December 31, 2025.

**Definition and Limitations of Internal Control over Financial Reporting.** A company's internal
control over financial reporting is a process designed to provide reasonable assurance regarding the
reliability of financial reporting and the preparation of financial statements for external purposes.
Because of its inherent limitations, internal control over financial reporting may not prevent or detect
misstatements. Projections of any evaluation of effectiveness to future periods are subject to the risk
that controls may become inadequate because of changes in conditions.

Hollins and Marrow LLP, Columbus, Ohio, February 20, 2026.

### Changes in Internal Control over Financial Reporting

There was no change in our internal control over financial reporting during the fourth quarter of fiscal
2025 that materially affected, or is reasonably likely to materially affect, our internal control over
financial reporting.

## Item 9B. Other Information

During the three months ended December 31, 2025, none of our directors or officers adopted or terminated
a trading arrangement for our securities.

## Item 9C. Disclosure Regarding Foreign Jurisdictions that Prevent Inspections

Not applicable.

# PART III

## Item 10. Directors, Executive Officers and Corporate Governance

Our executive officers at February 20, 2026, were as follows.

[table:officers]

**Dana R. Whitcombe** has served as our President and Chief Executive Officer since 2019. She joined
Tallis Ridge in 2008 and previously led our Municipal Systems segment.

**Marcus O. Ellery** has served as our Chief Financial Officer since 2021. Before joining us he held
finance positions at a manufacturer of industrial pumps for sixteen years.

**Ines Carvalho-Brandt** has served as our Chief Operating Officer since 2023 and was previously our
Vice President of Global Manufacturing.

We have adopted a code of business conduct that applies to all of our directors, officers and employees.
The remaining information required by this item will be included in our proxy statement for the 2026
annual meeting of stockholders and is incorporated herein by reference.

## Item 11. Executive Compensation

The information required by this item will be included in our 2026 proxy statement and is incorporated
herein by reference.

## Item 12. Security Ownership of Certain Beneficial Owners and Management and Related Stockholder
Matters

The information required by this item will be included in our 2026 proxy statement and is incorporated
herein by reference.

## Item 13. Certain Relationships and Related Transactions, and Director Independence

The information required by this item will be included in our 2026 proxy statement and is incorporated
herein by reference.

## Item 14. Principal Accountant Fees and Services

The following table shows the fees billed by Hollins and Marrow LLP for the last two fiscal years.

[table:fees]

# PART IV

## Item 15. Exhibits and Financial Statement Schedules

The financial statements filed as part of this report are listed in Item 8. Financial statement
schedules have been omitted because they are not required or because the information is included in the
financial statements or notes. The exhibits listed below are filed or incorporated by reference as part
of this report.

[table:exhibits]

## Item 16. Form 10-K Summary

None.

# Signatures

Pursuant to the requirements of Section 13 or 15(d) of the Securities Exchange Act of 1934, the
registrant has duly caused this report to be signed on its behalf by the undersigned, thereunto duly
authorised.

Tallis Ridge Water Systems, Inc., by Dana R. Whitcombe, President and Chief Executive Officer. Date:
February 20, 2026.

Pursuant to the requirements of the Securities Exchange Act of 1934, this report has been signed below
by the following persons on behalf of the registrant and in the capacities and on the dates indicated.

[table:signatures]
"""
