<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="town" tilewidth="32" tileheight="32" tilecount="160" columns="16">
 <image source="town.png" width="512" height="320"/>
 <tile id="0">
  <properties>
   <property name="name" value="grass"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="name" value="grass 2"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="name" value="grass 3"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="name" value="grass 4"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="name" value="grass with flowers"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="name" value="dirt path"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="name" value="stone path"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="name" value="road"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="name" value="road line bottom"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="name" value="road line right"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="name" value="sidewalk"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="name" value="sand"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="water"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="water with lily pads"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="name" value="dock"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="name" value="grass tall"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="name" value="wood floor"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="name" value="dark wood floor"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="name" value="light wood floor"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="name" value="tile floor"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="name" value="bathroom tile"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="name" value="kitchen tile"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="name" value="red carpet"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="name" value="blue carpet"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="name" value="green carpet"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="name" value="beige carpet"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="name" value="purple carpet"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="name" value="concrete floor"/>
  </properties>
 </tile>
 <tile id="28">
  <properties>
   <property name="name" value="door"/>
  </properties>
 </tile>
 <tile id="29">
  <properties>
   <property name="name" value="door side"/>
  </properties>
 </tile>
 <tile id="30">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="wall top"/>
  </properties>
 </tile>
 <tile id="31">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="wall face"/>
  </properties>
 </tile>
 <tile id="32">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="wall face blue"/>
  </properties>
 </tile>
 <tile id="33">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="wall face green"/>
  </properties>
 </tile>
 <tile id="34">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="wall face pink"/>
  </properties>
 </tile>
 <tile id="35">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="brick wall"/>
  </properties>
 </tile>
 <tile id="36">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="brick wall window"/>
  </properties>
 </tile>
 <tile id="37">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="siding wall"/>
  </properties>
 </tile>
 <tile id="38">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="siding wall window"/>
  </properties>
 </tile>
 <tile id="39">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="blue siding wall"/>
  </properties>
 </tile>
 <tile id="40">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="blue siding wall window"/>
  </properties>
 </tile>
 <tile id="41">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="stone wall"/>
  </properties>
 </tile>
 <tile id="42">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="stone wall window"/>
  </properties>
 </tile>
 <tile id="43">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="fence horizontal"/>
  </properties>
 </tile>
 <tile id="44">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="fence vertical"/>
  </properties>
 </tile>
 <tile id="45">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="hedge"/>
  </properties>
 </tile>
 <tile id="46">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="tree"/>
  </properties>
 </tile>
 <tile id="47">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="pine tree"/>
  </properties>
 </tile>
 <tile id="48">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="big tree top-left"/>
  </properties>
 </tile>
 <tile id="49">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="big tree top-right"/>
  </properties>
 </tile>
 <tile id="50">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bush"/>
  </properties>
 </tile>
 <tile id="51">
  <properties>
   <property name="name" value="red flowers"/>
  </properties>
 </tile>
 <tile id="52">
  <properties>
   <property name="name" value="yellow flowers"/>
  </properties>
 </tile>
 <tile id="53">
  <properties>
   <property name="name" value="purple flowers"/>
  </properties>
 </tile>
 <tile id="54">
  <properties>
   <property name="name" value="flower bed"/>
  </properties>
 </tile>
 <tile id="55">
  <properties>
   <property name="name" value="vegetable patch"/>
  </properties>
 </tile>
 <tile id="56">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="rock"/>
  </properties>
 </tile>
 <tile id="57">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="tree stump"/>
  </properties>
 </tile>
 <tile id="58">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bed top"/>
  </properties>
 </tile>
 <tile id="59">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="double bed top-left"/>
  </properties>
 </tile>
 <tile id="60">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="double bed top-right"/>
  </properties>
 </tile>
 <tile id="61">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="wardrobe"/>
  </properties>
 </tile>
 <tile id="62">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="dresser"/>
  </properties>
 </tile>
 <tile id="63">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="nightstand"/>
  </properties>
 </tile>
 <tile id="64">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="big tree bottom-left"/>
  </properties>
 </tile>
 <tile id="65">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="big tree bottom-right"/>
  </properties>
 </tile>
 <tile id="66">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="desk"/>
  </properties>
 </tile>
 <tile id="67">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="computer desk"/>
  </properties>
 </tile>
 <tile id="68">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="school desk"/>
  </properties>
 </tile>
 <tile id="69">
  <properties>
   <property name="name" value="chair"/>
  </properties>
 </tile>
 <tile id="70">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="table"/>
  </properties>
 </tile>
 <tile id="71">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="dining table"/>
  </properties>
 </tile>
 <tile id="72">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="cafe table"/>
  </properties>
 </tile>
 <tile id="73">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="coffee table"/>
  </properties>
 </tile>
 <tile id="74">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bed bottom"/>
  </properties>
 </tile>
 <tile id="75">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="double bed bottom-left"/>
  </properties>
 </tile>
 <tile id="76">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="double bed bottom-right"/>
  </properties>
 </tile>
 <tile id="77">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="picnic table left"/>
  </properties>
 </tile>
 <tile id="78">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="picnic table right"/>
  </properties>
 </tile>
 <tile id="79">
  <properties>
   <property name="name" value="armchair"/>
  </properties>
 </tile>
 <tile id="80">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="sofa left"/>
  </properties>
 </tile>
 <tile id="81">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="sofa right"/>
  </properties>
 </tile>
 <tile id="82">
  <properties>
   <property name="name" value="bench"/>
  </properties>
 </tile>
 <tile id="83">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="counter"/>
  </properties>
 </tile>
 <tile id="84">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="kitchen counter"/>
  </properties>
 </tile>
 <tile id="85">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="stove"/>
  </properties>
 </tile>
 <tile id="86">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="refrigerator"/>
  </properties>
 </tile>
 <tile id="87">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="sink"/>
  </properties>
 </tile>
 <tile id="88">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="dishwasher"/>
  </properties>
 </tile>
 <tile id="89">
  <properties>
   <property name="name" value="toilet"/>
  </properties>
 </tile>
 <tile id="90">
  <properties>
   <property name="name" value="shower"/>
  </properties>
 </tile>
 <tile id="91">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bathtub left"/>
  </properties>
 </tile>
 <tile id="92">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bathtub right"/>
  </properties>
 </tile>
 <tile id="93">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bathroom sink"/>
  </properties>
 </tile>
 <tile id="94">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="washing machine"/>
  </properties>
 </tile>
 <tile id="95">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bookshelf"/>
  </properties>
 </tile>
 <tile id="96">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="television"/>
  </properties>
 </tile>
 <tile id="97">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="fireplace"/>
  </properties>
 </tile>
 <tile id="98">
  <properties>
   <property name="name" value="floor lamp"/>
  </properties>
 </tile>
 <tile id="99">
  <properties>
   <property name="name" value="potted plant"/>
  </properties>
 </tile>
 <tile id="100">
  <properties>
   <property name="name" value="rug"/>
  </properties>
 </tile>
 <tile id="101">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="piano left"/>
  </properties>
 </tile>
 <tile id="102">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="piano right"/>
  </properties>
 </tile>
 <tile id="103">
  <properties>
   <property name="name" value="guitar"/>
  </properties>
 </tile>
 <tile id="104">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="drum kit"/>
  </properties>
 </tile>
 <tile id="105">
  <properties>
   <property name="name" value="music stand"/>
  </properties>
 </tile>
 <tile id="106">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="coffee machine"/>
  </properties>
 </tile>
 <tile id="107">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="pastry display"/>
  </properties>
 </tile>
 <tile id="108">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="cash register"/>
  </properties>
 </tile>
 <tile id="109">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bar counter"/>
  </properties>
 </tile>
 <tile id="110">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="beer taps"/>
  </properties>
 </tile>
 <tile id="111">
  <properties>
   <property name="name" value="bar stool"/>
  </properties>
 </tile>
 <tile id="112">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="jukebox"/>
  </properties>
 </tile>
 <tile id="113">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="pool table left"/>
  </properties>
 </tile>
 <tile id="114">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="pool table right"/>
  </properties>
 </tile>
 <tile id="115">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="grocery shelf"/>
  </properties>
 </tile>
 <tile id="116">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="medicine shelf"/>
  </properties>
 </tile>
 <tile id="117">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="storage shelf"/>
  </properties>
 </tile>
 <tile id="118">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="freezer"/>
  </properties>
 </tile>
 <tile id="119">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="produce stand"/>
  </properties>
 </tile>
 <tile id="120">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="crates"/>
  </properties>
 </tile>
 <tile id="121">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="workbench"/>
  </properties>
 </tile>
 <tile id="122">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="tool rack"/>
  </properties>
 </tile>
 <tile id="123">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="lumber pile"/>
  </properties>
 </tile>
 <tile id="124">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="paint cans"/>
  </properties>
 </tile>
 <tile id="125">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="blackboard"/>
  </properties>
 </tile>
 <tile id="126">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="lectern"/>
  </properties>
 </tile>
 <tile id="127">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="bulletin board"/>
  </properties>
 </tile>
 <tile id="128">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="filing cabinet"/>
  </properties>
 </tile>
 <tile id="129">
  <properties>
   <property name="name" value="globe"/>
  </properties>
 </tile>
 <tile id="130">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="reception desk"/>
  </properties>
 </tile>
 <tile id="131">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="easel"/>
  </properties>
 </tile>
 <tile id="132">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="camera tripod"/>
  </properties>
 </tile>
 <tile id="133">
  <properties>
   <property name="name" value="microphone stand"/>
  </properties>
 </tile>
 <tile id="134">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="flag"/>
  </properties>
 </tile>
 <tile id="135">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="street lamp"/>
  </properties>
 </tile>
 <tile id="136">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="grill"/>
  </properties>
 </tile>
 <tile id="137">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="fountain top-left"/>
  </properties>
 </tile>
 <tile id="138">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="fountain top-right"/>
  </properties>
 </tile>
 <tile id="139">
  <properties>
   <property name="name" value="trash can"/>
  </properties>
 </tile>
 <tile id="140">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="mailbox"/>
  </properties>
 </tile>
 <tile id="141">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="garden shed"/>
  </properties>
 </tile>
 <tile id="142">
  <properties>
   <property name="name" value="watering can"/>
  </properties>
 </tile>
 <tile id="143">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="swing set"/>
  </properties>
 </tile>
 <tile id="144">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="collision"/>
  </properties>
 </tile>
 <tile id="145">
  <properties>
   <property name="name" value="zone sector"/>
  </properties>
 </tile>
 <tile id="146">
  <properties>
   <property name="name" value="zone arena"/>
  </properties>
 </tile>
 <tile id="147">
  <properties>
   <property name="name" value="zone object"/>
  </properties>
 </tile>
 <tile id="148">
  <properties>
   <property name="name" value="spawn marker"/>
  </properties>
 </tile>
 <tile id="153">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="fountain bottom-left"/>
  </properties>
 </tile>
 <tile id="154">
  <properties>
   <property name="blocks" type="bool" value="true"/>
   <property name="name" value="fountain bottom-right"/>
  </properties>
 </tile>
</tileset>
