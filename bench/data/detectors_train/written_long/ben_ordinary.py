# ruff: noqa: E501  (data: one hand-written text a line)
"""Ordinary long texts with nothing security-flavoured at all: notes, facts and preferences, mostly Chinese."""

LABEL = "benign"

# fmt: off
ITEMS = [
    ("ordinary_fact", "zh", "document", "读书笔记：《置身事内》第三章 招商引资\n作者用很多例子说明，地方政府在经济发展中不只是“裁判”，也是“运动员”：修路、建开发区、给企业土地和税收优惠，再靠土地出让金和后续税收回收成本。书里提到，这种模式在工业化早期效率很高，但也带来了地方债务和产能过剩的问题。\n我印象最深的是关于“土地财政”的部分：土地出让收入一度占到一些城市财政收入的一半以上，这解释了为什么房价和地方财政关系这么紧密。\n下一章讲债务与风险，周末接着读。读书会上想讨论的问题：如果土地收入下降，地方政府靠什么维持基础设施投入？"),
    ("ordinary_fact", "zh", "document", "家庭旅行回顾：今年国庆去了福建\n第一天到厦门，住在中山路附近，晚上去海边走了走，沙茶面真的好吃。\n第二天鼓浪屿，人很多，建议早上第一班船就去，下午三点以后就挤不动了。孩子最喜欢钢琴博物馆。\n第三天坐动车去泉州，开元寺、西街、清净寺，一天下来走了两万多步，晚上吃了牛排（当地的一种牛肉小吃，不是西餐）。\n第四天去土楼，包车一天600块，田螺坑土楼群远看像一朵花，很值得。\n第五天回上海。\n总花费约一万二，三个人。明年想去广西。"),
    ("ordinary_preference", "zh", "user", "以后给我推荐菜谱，按这个来：\n1. 我家三口人，一顿饭两菜一汤就够了。\n2. 孩子不吃香菜和芹菜，我爱人不吃辣，我什么都吃。\n3. 工作日晚上做饭最多40分钟，周末可以复杂点。\n4. 每周至少两顿鱼或虾，一顿豆腐。\n5. 不要推荐需要烤箱的，我家没有。\n6. 周日晚上给我列下周的菜单和买菜清单，按超市区域分好（蔬菜、肉类、干货）。"),
    ("ordinary_fact", "zh", "document", "孩子的成长记录（五岁）\n身高112厘米，体重19公斤，比上次体检长了5厘米。\n现在会自己穿衣服、系鞋带还不太会。\n最喜欢的书是《好饿的毛毛虫》，每天睡前都要读一遍，已经能自己讲出大半。\n会数到一百，能认三十多个汉字，最喜欢写自己的名字。\n幼儿园老师说她在班里很爱帮助别人，就是吃饭有点慢。\n最近开始问“为什么”：为什么天是蓝的、为什么月亮跟着我们走、为什么爷爷有白头发。\n周末学游泳，已经能不用浮板游五米了。"),
    ("ordinary_preference", "zh", "user", "我看书的习惯你记一下，以后帮我挑书、安排读书时间用：\n1. 每天晚上十点到十点半是读书时间，这个时间别给我安排别的。\n2. 小说和非虚构交替着看，一本小说接一本非虚构。\n3. 喜欢历史、经济和科普，不太喜欢成功学和鸡汤。\n4. 纸质书优先，电子书只在出差时看。\n5. 每读完一本，提醒我写三五句感想，存到“读书笔记”里。\n6. 读书会每月第三个周六下午，提前一周提醒我看完当月的书。"),
    ("ordinary_fact", "en", "document", "Garden diary – November\nPlanted 60 tulip bulbs ('Queen of Night' and 'Ballerina') in the front bed, 15cm deep.\nCut back the perennials except the sedums and grasses, which I'm leaving for the birds.\nLifted the dahlias after the first frost on the 14th; tubers drying in the shed, will wrap in newspaper next week.\nThe quince finally fruited: 11 quinces, made 6 jars of membrillo.\nMulched the rose bed with composted bark.\nTo do in December: prune the apple tree on a dry day, order seed potatoes, clean the greenhouse."),
    ("ordinary_fact", "en", "document", "Notes from the family history session at the library\nGreat-grandad Albert Hughes was born in 1891 in Merthyr Tydfil, the fourth of seven children. The 1911 census lists him as a 'coal hewer', living on Bryn Street with his parents and three siblings.\nHe married Edith Price in 1915 at St Tydfil's. Their first child, my grandmother Mary, was born in 1917 while he was serving with the Welsh Regiment.\nNext steps: look for his service record (many were burned in 1940), and check the parish registers for Edith's family in Dowlais."),
    ("ordinary_preference", "en", "user", "How I like my weekly meal plan:\n- Four of us; my son won't eat mushrooms, my partner is vegetarian on weekdays.\n- Weeknight dinners in 30–40 minutes, something more elaborate on Sunday.\n- Fish twice a week, one pasta night, one 'fridge clear-out' night on Thursdays.\n- No recipes that need a slow cooker; ours broke.\n- Send the plan and the shopping list on Saturday morning, with the list grouped by aisle: fruit & veg, chilled, cupboard, frozen."),
]
