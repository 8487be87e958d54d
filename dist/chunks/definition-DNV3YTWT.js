import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-YDTKZJ4K.js";import"./chunk-OULGIBU3.js";import"./chunk-7OTRBHSY.js";import"./chunk-VW3SNVYK.js";import"./chunk-DHOSGSHR.js";import"./chunk-RLTZK4B5.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as action};
